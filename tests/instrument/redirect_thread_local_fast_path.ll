; Under tls_switch=lazy the FS base stays on one thread control block, so
; each thread_local address is redirected to the running simulated thread's
; copy. A thread_local this module defines, that no other definition can
; preempt (dso_local), in code for an executable (PIE, or not PIC at all),
; sits in the executable's static TLS block, at the same offset from every
; thread control block: its copy is the address llvm.threadlocal.address
; gives plus __sim_tls_delta, a TLS load and an add, no call.
; RUN: %sim-opt -S %s | FileCheck %s
; Not PIC (no PIC or PIE level, as clang -fno-pic emits):
; RUN: sed '/^!llvm.module.flags/d' %s | %sim-opt -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = dso_local thread_local global i32 0

declare ptr @llvm.threadlocal.address.p0(ptr)

; Declared as include/sim/sim_interface.h declares it.
; CHECK: @__sim_tls_delta = external thread_local(initialexec) global i64

; CHECK-LABEL: define i32 @bump(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    %sim.tls_delta_address = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %sim.tls_delta = load i64, ptr %sim.tls_delta_address
; CHECK-NEXT:    %sim.tls_address = getelementptr i8, ptr %addr, i64 %sim.tls_delta
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

; What clang -fPIE emits.
!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
