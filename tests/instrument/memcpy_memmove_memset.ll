; memcpy and memmove read their source range, then write their destination
; range; memset writes its destination range. The length is widened to the
; hook's unsigned long. The intrinsic itself is left in place.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@src = global [64 x i8] zeroinitializer
@dst = global [64 x i8] zeroinitializer

; CHECK-LABEL: define void @copy(
; CHECK: call void @__sim_read_range(ptr @src, i64 64,
; CHECK: call void @__sim_write_range(ptr @dst, i64 64,
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr @dst, ptr @src, i64 64, i1 false)
define void @copy() {
  call void @llvm.memcpy.p0.p0.i64(ptr @dst, ptr @src, i64 64, i1 false)
  ret void
}

; CHECK-LABEL: define void @move(
; CHECK: %[[LEN:.*]] = zext i32 %n to i64
; CHECK: call void @__sim_read_range(ptr @src, i64 %[[LEN]],
; CHECK: call void @__sim_write_range(ptr @dst, i64 %{{.*}},
; CHECK: call void @llvm.memmove.p0.p0.i32(ptr @dst, ptr @src, i32 %n, i1 false)
define void @move(i32 %n) {
  call void @llvm.memmove.p0.p0.i32(ptr @dst, ptr @src, i32 %n, i1 false)
  ret void
}

; CHECK-LABEL: define void @set(
; CHECK-NOT: __sim_read
; CHECK: call void @__sim_write_range(ptr @dst, i64 %n,
; CHECK: call void @llvm.memset.p0.i64(ptr @dst, i8 0, i64 %n, i1 false)
define void @set(i64 %n) {
  call void @llvm.memset.p0.i64(ptr @dst, i8 0, i64 %n, i1 false)
  ret void
}

; Only the end another thread can see gets a hook: here the destination is
; a stack slot that never escapes.
; CHECK-LABEL: define void @copy_to_private(
; CHECK: call void @__sim_read_range(ptr @src, i64 64,
; CHECK-NOT: __sim_write_range
; CHECK: call void @llvm.memcpy
define void @copy_to_private() {
  %local = alloca [64 x i8]
  call void @llvm.memcpy.p0.p0.i64(ptr %local, ptr @src, i64 64, i1 false)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i32(ptr, ptr, i32, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
