; A definition that is not dso_local may be bound at link or load time to
; another module's definition of the symbol (interposition), which need not
; be in the executable's static TLS block nor registered with the runtime;
; so even in an executable its address goes through __sim_tls_address.
; RUN: %sim-opt -S %s | FileCheck %s --implicit-check-not=__sim_tls_delta

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = thread_local global i32 0

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define i32 @read(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    %sim.tls_address = call ptr @__sim_tls_address(ptr %addr)
; CHECK-NEXT:    %v = load i32, ptr %sim.tls_address
define i32 @read() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  %v = load i32, ptr %addr
  ret i32 %v
}

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
