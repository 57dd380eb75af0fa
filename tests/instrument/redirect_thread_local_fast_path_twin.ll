; Redirection runs after every function is instrumented and cloned, so the
; uninstrumented twin (.native) reads the running simulated thread's copy
; too, not only the instrumented body.
; RUN: %sim-opt-with-twin -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@shared = global i32 0
@tl_counter = dso_local thread_local global i32 0

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define void @bump_both(
; CHECK:       entry:
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    [[DELTA_ADDR:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR]]
; CHECK-NEXT:    [[COPY:%sim.tls_address[0-9]*]] = getelementptr i8, ptr %addr, i64 [[DELTA]]
; CHECK-NEXT:    %v = load i32, ptr [[COPY]]
; CHECK:         call void @__sim_write4(ptr @shared,
; CHECK:       entry.native:
; CHECK-NEXT:    %addr.native = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    [[DELTA_ADDR:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR]]
; CHECK-NEXT:    [[COPY:%sim.tls_address[0-9]*]] = getelementptr i8, ptr %addr.native, i64 [[DELTA]]
; CHECK-NEXT:    %v.native = load i32, ptr [[COPY]]
; CHECK-NEXT:    store i32 %v.native, ptr @shared
define void @bump_both() {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  %v = load i32, ptr %addr
  store i32 %v, ptr @shared
  ret void
}
