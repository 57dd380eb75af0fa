; A coroutine not yet split by CoroSplit gets no uninstrumented copy: two
; copies of its body would be two coroutines sharing one coro.id. Its
; accesses are still instrumented in place.
; RUN: %sim-opt-with-twin -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

; CHECK-LABEL: define void @coroutine(
; CHECK-NOT:     sim.dispatch
; CHECK:         call void @__sim_write4(ptr @g,
; CHECK-NOT:     .native
; CHECK:         ret void
define void @coroutine() presplitcoroutine {
  store i32 1, ptr @g
  ret void
}
