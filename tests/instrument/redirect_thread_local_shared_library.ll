; In a shared library (PIC without PIE) even a thread_local the module
; defines and nothing can preempt may live outside the static TLS block
; (dlopen), so __sim_tls_delta cannot reach the running simulated thread's
; copy; the runtime finds it: each address goes through __sim_tls_address.
; RUN: %sim-opt -S %s | FileCheck %s --implicit-check-not=__sim_tls_delta

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = internal thread_local global i32 0

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define i32 @bump(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    %sim.tls_address = call ptr @__sim_tls_address(ptr %addr)
; CHECK-NEXT:    %v = load i32, ptr %sim.tls_address
; CHECK-NEXT:    %inc = add i32 %v, 1
; CHECK-NEXT:    store i32 %inc, ptr %sim.tls_address
; CHECK-NEXT:    ret i32 %v
define i32 @bump() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  %v = load i32, ptr %addr
  %inc = add i32 %v, 1
  store i32 %inc, ptr %addr
  ret i32 %v
}

; CHECK: declare ptr @__sim_tls_address(ptr)

; What clang -fPIC emits.
!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIC Level", i32 2}
