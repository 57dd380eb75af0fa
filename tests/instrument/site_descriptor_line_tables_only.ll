; Under -gline-tables-only a DISubprogram carries only the unqualified name
; ("build"); for a line in the function itself the site names the function
; by its demangled symbol instead.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@client = global ptr null

; CHECK-DAG: @[[FUNC:sim\.str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"Registry::build()\00"
; CHECK-DAG: @sim.site{{[.0-9]*}} = private constant { ptr, ptr, i32, i32, i64, i32 } { ptr @{{sim\.str[.0-9]*}}, ptr @[[FUNC]], i32 11, i32 7,

define void @_ZN8Registry5buildEv() !dbg !4 {
  store ptr null, ptr @client, !dbg !7
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/registry.cpp", directory: "/home/build")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "build", scope: !1, file: !1, line: 9, type: !5, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DILocation(line: 11, column: 7, scope: !4)
