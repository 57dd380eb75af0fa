; A thread fence calls __sim_atomic_fence with its C ABI order. A
; single-thread (signal) fence only orders against a signal handler on the
; same thread, so it is not a scheduling point and gets no hook.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @fences(
define void @fences() {
; CHECK: call void @__sim_atomic_fence(i32 2,
; CHECK: fence acquire
  fence acquire
; CHECK: call void @__sim_atomic_fence(i32 3,
; CHECK: fence release
  fence release
; CHECK: call void @__sim_atomic_fence(i32 4,
; CHECK: fence acq_rel
  fence acq_rel
; CHECK: call void @__sim_atomic_fence(i32 5,
; CHECK: fence seq_cst
  fence seq_cst
  ret void
}

; CHECK-LABEL: define void @signal_fence(
; CHECK-NOT: __sim_atomic_fence
; CHECK: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: ret void
define void @signal_fence() {
  fence syncscope("singlethread") seq_cst
  ret void
}
