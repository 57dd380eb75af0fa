; A thread_local defined elsewhere (declared here, or available_externally:
; a copy of a definition in another object) may be libc's, a shared
; library's, or another object's; the runtime knows which, and whether it
; moves, so its address goes through __sim_tls_address even in an
; executable.
; RUN: %sim-opt -S %s | FileCheck %s --implicit-check-not=__sim_tls_delta

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_elsewhere = external dso_local thread_local global i32
@tl_inline_copy = available_externally dso_local thread_local global i32 7

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define i32 @read_declared(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_elsewhere)
; CHECK-NEXT:    %sim.tls_address = call ptr @__sim_tls_address(ptr %addr)
; CHECK-NEXT:    %v = load i32, ptr %sim.tls_address
define i32 @read_declared() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_elsewhere)
  %v = load i32, ptr %addr
  ret i32 %v
}

; CHECK-LABEL: define i32 @read_available_externally(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_inline_copy)
; CHECK-NEXT:    %sim.tls_address = call ptr @__sim_tls_address(ptr %addr)
; CHECK-NEXT:    %v = load i32, ptr %sim.tls_address
define i32 @read_available_externally() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_inline_copy)
  %v = load i32, ptr %addr
  ret i32 %v
}

; CHECK: declare ptr @__sim_tls_address(ptr)

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
