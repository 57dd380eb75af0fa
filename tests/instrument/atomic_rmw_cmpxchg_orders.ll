; atomicrmw calls __sim_atomicBITS_rmw and cmpxchg __sim_atomicBITS_cmpxchg,
; with the C ABI order of the operation (for cmpxchg, the success order).
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@a8 = global i8 0
@a16 = global i16 0
@a32 = global i32 0
@a64 = global i64 0
@a128 = global i128 0

; CHECK-LABEL: define void @rmw(
define void @rmw() {
; CHECK: call void @__sim_atomic32_rmw(ptr @a32, i32 0,
; CHECK: atomicrmw add ptr @a32, i32 1 monotonic
  %r0 = atomicrmw add ptr @a32, i32 1 monotonic
; CHECK: call void @__sim_atomic32_rmw(ptr @a32, i32 2,
; CHECK: atomicrmw xchg ptr @a32, i32 1 acquire
  %r2 = atomicrmw xchg ptr @a32, i32 1 acquire
; CHECK: call void @__sim_atomic32_rmw(ptr @a32, i32 3,
; CHECK: atomicrmw sub ptr @a32, i32 1 release
  %r3 = atomicrmw sub ptr @a32, i32 1 release
; CHECK: call void @__sim_atomic32_rmw(ptr @a32, i32 4,
; CHECK: atomicrmw or ptr @a32, i32 1 acq_rel
  %r4 = atomicrmw or ptr @a32, i32 1 acq_rel
; CHECK: call void @__sim_atomic32_rmw(ptr @a32, i32 5,
; CHECK: atomicrmw and ptr @a32, i32 1 seq_cst
  %r5 = atomicrmw and ptr @a32, i32 1 seq_cst
; CHECK: call void @__sim_atomic8_rmw(ptr @a8, i32 5,
  %b = atomicrmw add ptr @a8, i8 1 seq_cst
; CHECK: call void @__sim_atomic16_rmw(ptr @a16, i32 5,
  %h = atomicrmw add ptr @a16, i16 1 seq_cst
; CHECK: call void @__sim_atomic64_rmw(ptr @a64, i32 5,
  %l = atomicrmw add ptr @a64, i64 1 seq_cst
  ret void
}

; CHECK-LABEL: define void @cmpxchg(
define void @cmpxchg() {
; CHECK: call void @__sim_atomic32_cmpxchg(ptr @a32, i32 0,
; CHECK: cmpxchg ptr @a32, i32 0, i32 1 monotonic monotonic
  %c0 = cmpxchg ptr @a32, i32 0, i32 1 monotonic monotonic
; CHECK: call void @__sim_atomic32_cmpxchg(ptr @a32, i32 2,
  %c2 = cmpxchg ptr @a32, i32 0, i32 1 acquire monotonic
; CHECK: call void @__sim_atomic32_cmpxchg(ptr @a32, i32 3,
  %c3 = cmpxchg ptr @a32, i32 0, i32 1 release monotonic
; CHECK: call void @__sim_atomic32_cmpxchg(ptr @a32, i32 4,
  %c4 = cmpxchg ptr @a32, i32 0, i32 1 acq_rel acquire
; The failure order (acquire) is not what is passed.
; CHECK: call void @__sim_atomic32_cmpxchg(ptr @a32, i32 5,
; CHECK: cmpxchg ptr @a32, i32 0, i32 1 seq_cst acquire
  %c5 = cmpxchg ptr @a32, i32 0, i32 1 seq_cst acquire
; CHECK: call void @__sim_atomic8_cmpxchg(ptr @a8, i32 5,
  %b = cmpxchg ptr @a8, i8 0, i8 1 seq_cst seq_cst
; CHECK: call void @__sim_atomic16_cmpxchg(ptr @a16, i32 5,
  %h = cmpxchg ptr @a16, i16 0, i16 1 seq_cst seq_cst
; CHECK: call void @__sim_atomic64_cmpxchg(ptr @a64, i32 5,
  %l = cmpxchg ptr @a64, i64 0, i64 1 seq_cst seq_cst
; CHECK: call void @__sim_atomic128_cmpxchg(ptr @a128, i32 5,
  %w = cmpxchg ptr @a128, i128 0, i128 1 seq_cst seq_cst
  ret void
}
