; Memory in another address space (x86 fs/gs-relative here, GPU memories
; elsewhere) is not the memory simulated threads share, and the hooks take a
; generic pointer, so such accesses get no hook. For the same reason a
; thread_local there is neither redirected nor registered.
; RUN: %sim-opt -S %s | FileCheck %s \
; RUN:   --implicit-check-not=__sim_tls --implicit-check-not=__sim_register

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_elsewhere = dso_local thread_local addrspace(1) global i32 0

; CHECK-LABEL: define i64 @gs_relative(
; CHECK-NOT: call void @__sim_
; CHECK: load i64, ptr addrspace(256) %p
; CHECK: call void @__sim_read8(ptr %q,
define i64 @gs_relative(ptr addrspace(256) %p, ptr %q) {
  %a = load i64, ptr addrspace(256) %p
  %b = load i64, ptr %q
  %s = add i64 %a, %b
  ret i64 %s
}

; CHECK-LABEL: define i32 @thread_local_in_address_space(
; CHECK-NEXT: %addr = call ptr addrspace(1) @llvm.threadlocal.address.p1(ptr addrspace(1) @tl_elsewhere)
; CHECK-NEXT: %v = load i32, ptr addrspace(1) %addr
define i32 @thread_local_in_address_space() {
  %addr = call ptr addrspace(1) @llvm.threadlocal.address.p1(ptr addrspace(1) @tl_elsewhere)
  %v = load i32, ptr addrspace(1) %addr
  ret i32 %v
}
