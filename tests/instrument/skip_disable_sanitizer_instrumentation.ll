; __attribute__((disable_sanitizer_instrumentation)) asks for a function to
; be left exactly as compiled; the pass leaves it alone.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

; CHECK-LABEL: define void @left_alone(
; CHECK-NEXT: store i32 1, ptr @g
; CHECK-NEXT: ret void
define void @left_alone() disable_sanitizer_instrumentation {
  store i32 1, ptr @g
  ret void
}

; CHECK-LABEL: define void @instrumented(
; CHECK: call void @__sim_write4(ptr @g,
define void @instrumented() {
  store i32 1, ptr @g
  ret void
}
