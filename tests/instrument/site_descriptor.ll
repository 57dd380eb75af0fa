; Each hook gets a private constant struct __sim_site
;   { file, function, line, column, hash, read_then_written }
; from the access's DebugLoc: the file name as the DIFile stores it (not
; joined with the directory), the demangled function the source line belongs
; to (for inlined code, the inlined function), and
; hash = FNV-1a 64 of "basename(file):line"; read_then_written is
; read_then_written.ll's. Identical sites and strings are emitted once per
; module.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@client = global ptr null

; FNV-1a 64 of "registry.cpp:11", worked out independently of the pass:
;   h = 14695981039346656037; for each byte b: h = (h xor b) * 1099511628211 mod 2^64
;   = 7994927740733589811
; CHECK-DAG: @[[FILE:sim\.str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"src/registry.cpp\00"
; CHECK-DAG: @[[FUNC:sim\.str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"Registry::build()\00"
; CHECK-DAG: @[[SITE:sim\.site[.0-9]*]] = private constant { ptr, ptr, i32, i32, i64, i32 } { ptr @[[FILE]], ptr @[[FUNC]], i32 11, i32 7, i64 7994927740733589811, i32 0 }, align 8
; The inlined access reports the inlined function and its header line.
; CHECK-DAG: @[[HEADER:sim\.str[.0-9]*]] = private unnamed_addr constant [15 x i8] c"src/registry.h\00"
; CHECK-DAG: @[[GETTER:sim\.str[.0-9]*]] = private unnamed_addr constant [25 x i8] c"Registry::client() const\00"
; CHECK-DAG: @[[INLINED:sim\.site[.0-9]*]] = private constant { ptr, ptr, i32, i32, i64, i32 } { ptr @[[HEADER]], ptr @[[GETTER]], i32 4, i32 12, i64 337721689973647158, i32 0 }
; Without a DebugLoc: "<unknown>", line 0, the function's own name.
; CHECK-DAG: @[[UNKNOWN:sim\.str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"<unknown>\00"
; CHECK-DAG: @[[NODEBUG:sim\.str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"no_debug(int)\00"
; CHECK-DAG: @[[NODEBUG_SITE:sim\.site[.0-9]*]] = private constant { ptr, ptr, i32, i32, i64, i32 } { ptr @[[UNKNOWN]], ptr @[[NODEBUG]], i32 0, i32 0, i64 6331699244343030237, i32 0 }

; CHECK-LABEL: define void @_ZN8Registry5buildEv(
; CHECK: call void @__sim_write8(ptr @client, ptr @[[SITE]])
; Same location, same descriptor.
; CHECK: call void @__sim_read8(ptr @client, ptr @[[SITE]])
; CHECK: call void @__sim_read8(ptr @client, ptr @[[INLINED]])
define void @_ZN8Registry5buildEv() !dbg !4 {
  store ptr null, ptr @client, !dbg !7
  %c = load ptr, ptr @client, !dbg !7
  %d = load ptr, ptr @client, !dbg !8
  ret void
}

; CHECK-LABEL: define void @_Z8no_debugi(
; CHECK: call void @__sim_write8(ptr @client, ptr @[[NODEBUG_SITE]])
define void @_Z8no_debugi(i32 %x) {
  store ptr null, ptr @client
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/registry.cpp", directory: "/home/build")
!2 = !DIFile(filename: "src/registry.h", directory: "/home/build")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "build", linkageName: "_ZN8Registry5buildEv", scope: !1, file: !1, line: 9, type: !5, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocation(line: 11, column: 7, scope: !4)
!8 = !DILocation(line: 4, column: 12, scope: !9, inlinedAt: !7)
!9 = distinct !DISubprogram(name: "client", linkageName: "_ZNK8Registry6clientEv", scope: !2, file: !2, line: 3, type: !5, spFlags: DISPFlagDefinition, unit: !0)
