; An alias of a thread_local is redirected as the variable it names: the
; fast path when both the alias and the variable are dso_local definitions
; of an executable, __sim_tls_address when the alias can be preempted.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = dso_local thread_local global i32 0
@tl_local_alias = dso_local thread_local alias i32, ptr @tl_counter
@tl_preemptible_alias = thread_local alias i32, ptr @tl_counter

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define i32 @through_local_alias(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_local_alias)
; CHECK-NEXT:    %sim.tls_delta_address = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %sim.tls_delta = load i64, ptr %sim.tls_delta_address
; CHECK-NEXT:    %sim.tls_address = getelementptr i8, ptr %addr, i64 %sim.tls_delta
; CHECK-NEXT:    %v = load i32, ptr %sim.tls_address
define i32 @through_local_alias() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_local_alias)
  %v = load i32, ptr %addr
  ret i32 %v
}

; CHECK-LABEL: define void @alias_named_directly(
; CHECK-NEXT:    [[ADDR:%sim.thread_local[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_preemptible_alias)
; CHECK-NEXT:    [[COPY:%sim.tls_address[0-9]*]] = call ptr @__sim_tls_address(ptr [[ADDR]])
; CHECK-NEXT:    store i32 1, ptr [[COPY]]
define void @alias_named_directly() {
  store i32 1, ptr @tl_preemptible_alias
  ret void
}

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
