; The vtable pointer of an object is written by its constructor before the
; object is published and only read afterwards, so loading it is not a
; scheduling point (TSan skips it likewise). Clang marks the load with TBAA
; "vtable pointer", or with !invariant.group under -fstrict-vtable-pointers.
; Storing the vtable pointer (in a constructor) is an ordinary write.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@_ZTV4Base = external constant { [3 x ptr] }

; CHECK-LABEL: define ptr @load_vtable_pointer(
; CHECK-NOT: call void @__sim_
; CHECK: %vtable = load ptr, ptr %object, align 8, !tbaa
define ptr @load_vtable_pointer(ptr %object) {
  %vtable = load ptr, ptr %object, align 8, !tbaa !0
  ret ptr %vtable
}

; CHECK-LABEL: define ptr @strict_vtable_pointer(
; CHECK-NOT: call void @__sim_
; CHECK: load ptr, ptr %object, align 8, !invariant.group
define ptr @strict_vtable_pointer(ptr %object) {
  %vtable = load ptr, ptr %object, align 8, !invariant.group !3
  ret ptr %vtable
}

; CHECK-LABEL: define void @construct(
; CHECK: call void @__sim_write8(ptr %object,
; CHECK: store ptr getelementptr
define void @construct(ptr %object) {
  store ptr getelementptr inbounds (i8, ptr @_ZTV4Base, i64 16), ptr %object, align 8, !tbaa !0
  ret void
}

!0 = !{!1, !1, i64 0}
!1 = !{!"vtable pointer", !2, i64 0}
!2 = !{!"Simple C++ TBAA"}
!3 = !{}
