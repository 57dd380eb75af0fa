; A function with disable_sanitizer_instrumentation gets no hooks, but its
; thread_local addresses are redirected all the same: the attribute asks for
; no scheduling points, and without the redirection the function would read
; and write whichever thread's copy the installed thread control block holds.
; RUN: %sim-opt -S %s | FileCheck %s --implicit-check-not='call void @__sim_write'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@shared = global i32 0
@tl_counter = dso_local thread_local global i32 0

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define void @left_alone(
; CHECK-NEXT:    store i32 1, ptr @shared
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    %sim.tls_delta_address = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %sim.tls_delta = load i64, ptr %sim.tls_delta_address
; CHECK-NEXT:    %sim.tls_address = getelementptr i8, ptr %addr, i64 %sim.tls_delta
; CHECK-NEXT:    store i32 1, ptr %sim.tls_address
; CHECK-NEXT:    ret void
define void @left_alone() disable_sanitizer_instrumentation {
  store i32 1, ptr @shared
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  store i32 1, ptr %addr
  ret void
}
