; The runtime's own code and thread_locals (__sim_*) are not redirected: a
; runtime function may want the OS thread's state, __sim_tls_delta is what
; every redirection reads (redirecting it would need itself), and
; __sim_tls_address would call itself. The runtime's thread_locals are not
; registered either.
; RUN: %sim-opt -S %s | FileCheck %s --implicit-check-not=__sim_tls_address

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = dso_local thread_local global i32 0
@__sim_tls_delta = external thread_local(initialexec) global i64
@__sim_runtime_state = dso_local thread_local global i32 0

declare ptr @llvm.threadlocal.address.p0(ptr)

; CHECK-LABEL: define void @__sim_runtime_helper(
; CHECK-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    store i32 1, ptr %addr
; CHECK-NEXT:    store i32 2, ptr @tl_counter
; CHECK-NEXT:    ret void
define void @__sim_runtime_helper() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  store i32 1, ptr %addr
  store i32 2, ptr @tl_counter
  ret void
}

; CHECK-LABEL: define i64 @user_reads_runtime_state(
; CHECK-NEXT:    %delta_addr = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %delta = load i64, ptr %delta_addr
; CHECK-NEXT:    %state_addr = call ptr @llvm.threadlocal.address.p0(ptr @__sim_runtime_state)
; CHECK-NEXT:    %state = load i32, ptr %state_addr
define i64 @user_reads_runtime_state() {
  %delta_addr = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
  %delta = load i64, ptr %delta_addr
  %state_addr = call ptr @llvm.threadlocal.address.p0(ptr @__sim_runtime_state)
  %state = load i32, ptr %state_addr
  %wide = sext i32 %state to i64
  %sum = add i64 %delta, %wide
  ret i64 %sum
}

; CHECK-LABEL: define internal void @sim.register_thread_locals(
; CHECK-NEXT:    [[COUNTER:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    call void @__sim_register_thread_local(ptr [[COUNTER]], i64 4)
; CHECK-NEXT:    ret void
