; !invariant.load promises the memory never changes while it is
; dereferenceable (clang puts it on loads from a vtable slot), so no write
; can race the load: not a scheduling point.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define ptr @virtual_function_slot(
; CHECK-NOT: call void @__sim_
; CHECK: load ptr, ptr %slot, align 8, !invariant.load
; CHECK: call void @__sim_read8(ptr %slot,
; CHECK: load ptr, ptr %slot, align 8
define ptr @virtual_function_slot(ptr %slot) {
  %fn = load ptr, ptr %slot, align 8, !invariant.load !0
  %plain = load ptr, ptr %slot, align 8
  ret ptr %fn
}

!0 = !{}
