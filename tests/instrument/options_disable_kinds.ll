; Each kind of access can be left out: -sim-instrument-memory-accesses,
; -sim-instrument-atomics (atomics and fences), -sim-instrument-memintrinsics.
; RUN: %sim-opt -sim-instrument-memory-accesses=false -S %s | FileCheck %s --check-prefix=NO-PLAIN
; RUN: %sim-opt -sim-instrument-atomics=false -S %s | FileCheck %s --check-prefix=NO-ATOMIC
; RUN: %sim-opt -sim-instrument-memintrinsics=false -S %s | FileCheck %s --check-prefix=NO-MEMINTRIN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0
@buffer = global [16 x i8] zeroinitializer

; NO-PLAIN-NOT: call void @__sim_write4
; NO-PLAIN: call void @__sim_atomic32_rmw
; NO-PLAIN: call void @__sim_atomic_fence
; NO-PLAIN: call void @__sim_write_range

; NO-ATOMIC: call void @__sim_write4
; NO-ATOMIC-NOT: call void @__sim_atomic
; NO-ATOMIC: call void @__sim_write_range

; NO-MEMINTRIN: call void @__sim_write4
; NO-MEMINTRIN: call void @__sim_atomic32_rmw
; NO-MEMINTRIN: call void @__sim_atomic_fence
; NO-MEMINTRIN-NOT: call void @__sim_write_range
define void @each_kind() {
  store i32 1, ptr @g
  %old = atomicrmw add ptr @g, i32 1 seq_cst
  fence seq_cst
  call void @llvm.memset.p0.i64(ptr @buffer, i8 0, i64 16, i1 false)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
