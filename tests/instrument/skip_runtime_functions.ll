; Functions named __sim_* belong to the runtime, which runs the scheduler; a
; hook inside one would re-enter it. They are never instrumented.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

; CHECK-LABEL: define void @__sim_runtime_helper(
; CHECK-NEXT: store i32 1, ptr @g
; CHECK-NEXT: ret void
define void @__sim_runtime_helper() {
  store i32 1, ptr @g
  ret void
}
