; Accesses of a size without a fixed-size hook call __sim_read_range /
; __sim_write_range with their store size in bytes.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g24 = global i24 0
@gvec = global <8 x i32> zeroinitializer
@garr = global [3 x i8] zeroinitializer

; CHECK-LABEL: define void @odd_sizes(
define void @odd_sizes() {
; CHECK: call void @__sim_read_range(ptr @g24, i64 3,
; CHECK: load i24, ptr @g24
  %a = load i24, ptr @g24
; CHECK: call void @__sim_read_range(ptr @gvec, i64 32,
; CHECK: load <8 x i32>, ptr @gvec
  %v = load <8 x i32>, ptr @gvec
; CHECK: call void @__sim_write_range(ptr @gvec, i64 32,
; CHECK: store <8 x i32> %v, ptr @gvec
  store <8 x i32> %v, ptr @gvec
; CHECK: call void @__sim_write_range(ptr @garr, i64 3,
; CHECK: store [3 x i8] zeroinitializer, ptr @garr
  store [3 x i8] zeroinitializer, ptr @garr
  ret void
}
