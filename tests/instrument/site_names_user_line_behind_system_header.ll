; An access inlined from a system header (std::atomic::load from
; /usr/lib/gcc/.../atomic_base.h) is named by the user's line that called
; it, the first location up the inlined-at chain outside /usr/include and
; /usr/lib; the function is the user's too. When every location is a
; system header, the innermost is kept.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ready = global i32 0

; CHECK-DAG: @[[USER_FILE:sim\.str[.0-9]*]] = private unnamed_addr constant [21 x i8] c"service_registry.cpp\00"
; CHECK-DAG: @[[USER_FUNC:sim\.str[.0-9]*]] = private unnamed_addr constant [20 x i8] c"Registry::isReady()\00"
; CHECK-DAG: @[[USER_SITE:sim\.site[.0-9]*]] = private constant { ptr, ptr, i32, i32, i64, i32 } { ptr @[[USER_FILE]], ptr @[[USER_FUNC]], i32 46, i32 10,
; CHECK-DAG: @[[SYSTEM_FILE:sim\.str[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"/usr/include/c++/12/bits/atomic_base.h\00"
; CHECK-DAG: @[[ONLY_SYSTEM:sim\.site[.0-9]*]] = private constant { ptr, ptr, i32, i32, i64, i32 } { ptr @[[SYSTEM_FILE]], ptr {{@sim\.str[.0-9]*}}, i32 796, i32 9,

; CHECK-LABEL: define i32 @_ZN8Registry7isReadyEv(
; CHECK: call void @__sim_atomic32_load(ptr @ready, i32 2, ptr @[[USER_SITE]])
define i32 @_ZN8Registry7isReadyEv() !dbg !10 {
  %value = load atomic i32, ptr @ready acquire, align 4, !dbg !20
  ret i32 %value
}

; CHECK-LABEL: define i32 @_ZNKSt13__atomic_baseIiE4loadESt12memory_order(
; CHECK: call void @__sim_atomic32_load(ptr @ready, i32 2, ptr @[[ONLY_SYSTEM]])
define i32 @_ZNKSt13__atomic_baseIiE4loadESt12memory_order() !dbg !30 {
  %value = load atomic i32, ptr @ready acquire, align 4, !dbg !31
  ret i32 %value
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "service_registry.cpp", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !DIFile(filename: "/usr/include/c++/12/bits/atomic_base.h", directory: "/src")
!10 = distinct !DISubprogram(name: "isReady", linkageName: "_ZN8Registry7isReadyEv", scope: !1, file: !1, line: 45, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = distinct !DISubprogram(name: "load", linkageName: "_ZNKSt13__atomic_baseIiE4loadESt12memory_order", scope: !4, file: !4, line: 790, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 796, column: 9, scope: !12, inlinedAt: !21)
!21 = !DILocation(line: 46, column: 10, scope: !10)
!30 = distinct !DISubprogram(name: "load", linkageName: "_ZNKSt13__atomic_baseIiE4loadESt12memory_order", scope: !4, file: !4, line: 790, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!31 = !DILocation(line: 796, column: 9, scope: !30)
