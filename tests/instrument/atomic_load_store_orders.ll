; Atomic loads and stores call __sim_atomicBITS_load/_store with the C ABI
; memory order: relaxed 0, consume 1, acquire 2, release 3, acq_rel 4,
; seq_cst 5. LLVM has no consume (clang emits acquire) and its unordered is
; weaker than relaxed, so it is reported as relaxed.
; RUN: %sim-opt -S %s | FileCheck %s \
; RUN:   --implicit-check-not='call void @__sim_read' \
; RUN:   --implicit-check-not='call void @__sim_write'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@a8 = global i8 0
@a16 = global i16 0
@a32 = global i32 0
@a64 = global i64 0
@a128 = global i128 0
@aptr = global ptr null

; CHECK-LABEL: define void @loads(
define void @loads() {
; CHECK: call void @__sim_atomic32_load(ptr @a32, i32 0,
; CHECK: load atomic i32, ptr @a32 unordered
  %u = load atomic i32, ptr @a32 unordered, align 4
; CHECK: call void @__sim_atomic32_load(ptr @a32, i32 0,
; CHECK: load atomic i32, ptr @a32 monotonic
  %r = load atomic i32, ptr @a32 monotonic, align 4
; CHECK: call void @__sim_atomic32_load(ptr @a32, i32 2,
; CHECK: load atomic i32, ptr @a32 acquire
  %q = load atomic i32, ptr @a32 acquire, align 4
; CHECK: call void @__sim_atomic32_load(ptr @a32, i32 5,
; CHECK: load atomic i32, ptr @a32 seq_cst
  %s = load atomic i32, ptr @a32 seq_cst, align 4
; CHECK: call void @__sim_atomic8_load(ptr @a8, i32 5,
  %b = load atomic i8, ptr @a8 seq_cst, align 1
; CHECK: call void @__sim_atomic16_load(ptr @a16, i32 5,
  %h = load atomic i16, ptr @a16 seq_cst, align 2
; CHECK: call void @__sim_atomic64_load(ptr @a64, i32 2,
  %l = load atomic i64, ptr @a64 acquire, align 8
; CHECK: call void @__sim_atomic128_load(ptr @a128, i32 0,
  %w = load atomic i128, ptr @a128 monotonic, align 16
; CHECK: call void @__sim_atomic64_load(ptr @aptr, i32 2,
  %p = load atomic ptr, ptr @aptr acquire, align 8
  ret void
}

; CHECK-LABEL: define void @stores(
define void @stores() {
; CHECK: call void @__sim_atomic32_store(ptr @a32, i32 0,
; CHECK: store atomic i32 1, ptr @a32 monotonic
  store atomic i32 1, ptr @a32 monotonic, align 4
; CHECK: call void @__sim_atomic32_store(ptr @a32, i32 3,
; CHECK: store atomic i32 2, ptr @a32 release
  store atomic i32 2, ptr @a32 release, align 4
; CHECK: call void @__sim_atomic32_store(ptr @a32, i32 5,
; CHECK: store atomic i32 3, ptr @a32 seq_cst
  store atomic i32 3, ptr @a32 seq_cst, align 4
; CHECK: call void @__sim_atomic8_store(ptr @a8, i32 3,
  store atomic i8 1, ptr @a8 release, align 1
; CHECK: call void @__sim_atomic16_store(ptr @a16, i32 0,
  store atomic i16 1, ptr @a16 monotonic, align 2
; CHECK: call void @__sim_atomic64_store(ptr @a64, i32 5,
  store atomic i64 1, ptr @a64 seq_cst, align 8
; CHECK: call void @__sim_atomic128_store(ptr @a128, i32 3,
  store atomic i128 1, ptr @a128 release, align 16
  ret void
}
