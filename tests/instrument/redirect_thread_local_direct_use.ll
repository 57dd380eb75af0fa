; A thread_local named directly by an instruction (legal IR, though clang
; goes through llvm.threadlocal.address) means the current thread's copy as
; well: each such operand becomes a call of llvm.threadlocal.address, just
; before its instruction, and is redirected like any other.
; RUN: %sim-opt -sim-hook-calls=false -S %s | FileCheck %s
; (The race detector's hooks around calls are hook_calls.ll's to test.)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = dso_local thread_local global i32 0

declare void @use(ptr)

; CHECK-LABEL: define i1 @direct_uses(
; CHECK-NEXT:    [[ADDR1:%sim.thread_local[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    [[DELTA_ADDR1:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA1:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR1]]
; CHECK-NEXT:    [[COPY1:%sim.tls_address[0-9]*]] = getelementptr i8, ptr [[ADDR1]], i64 [[DELTA1]]
; CHECK-NEXT:    store i32 1, ptr [[COPY1]]
; CHECK-NEXT:    [[ADDR2:%sim.thread_local[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    [[DELTA_ADDR2:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA2:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR2]]
; CHECK-NEXT:    [[COPY2:%sim.tls_address[0-9]*]] = getelementptr i8, ptr [[ADDR2]], i64 [[DELTA2]]
; CHECK-NEXT:    call void @use(ptr [[COPY2]])
; CHECK-NEXT:    [[ADDR3:%sim.thread_local[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    [[DELTA_ADDR3:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA3:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR3]]
; CHECK-NEXT:    [[COPY3:%sim.tls_address[0-9]*]] = getelementptr i8, ptr [[ADDR3]], i64 [[DELTA3]]
; CHECK-NEXT:    %mine = icmp eq ptr %p, [[COPY3]]
; CHECK-NEXT:    ret i1 %mine
define i1 @direct_uses(ptr %p) {
  store i32 1, ptr @tl_counter
  call void @use(ptr @tl_counter)
  %mine = icmp eq ptr %p, @tl_counter
  ret i1 %mine
}
