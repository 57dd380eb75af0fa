; A thread_local address that is a phi's incoming value is computed, and
; redirected, at the end of the incoming block, once per block: a block that
; reaches the phi on two edges (two cases of a switch) must give it one
; value. Constant expressions too.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = dso_local thread_local global i32 0
@tl_array = dso_local thread_local global [8 x i32] zeroinitializer

; CHECK-LABEL: define ptr @choose(
; CHECK:       two_edges:
; CHECK-NEXT:    [[ADDR:%sim.thread_local[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    [[DELTA_ADDR:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR]]
; CHECK-NEXT:    [[COUNTER:%sim.tls_address[0-9]*]] = getelementptr i8, ptr [[ADDR]], i64 [[DELTA]]
; CHECK-NEXT:    switch i32 %which, label %join [
; CHECK:       element:
; CHECK-NEXT:    [[ADDR:%sim.thread_local[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_array)
; CHECK-NEXT:    [[DELTA_ADDR:%sim.tls_delta_address[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    [[DELTA:%sim.tls_delta[0-9]*]] = load i64, ptr [[DELTA_ADDR]]
; CHECK-NEXT:    [[ARRAY:%sim.tls_address[0-9]*]] = getelementptr i8, ptr [[ADDR]], i64 [[DELTA]]
; CHECK-NEXT:    [[ELEMENT:%.*]] = getelementptr inbounds [8 x i32], ptr [[ARRAY]], i64 0, i64 1
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    %p = phi ptr [ [[COUNTER]], %two_edges ], [ [[COUNTER]], %two_edges ], [ [[COUNTER]], %two_edges ], [ [[ELEMENT]], %element ]
define ptr @choose(i1 %counter, i32 %which) {
entry:
  br i1 %counter, label %two_edges, label %element
two_edges:
  switch i32 %which, label %join [ i32 1, label %join
                                   i32 2, label %join ]
element:
  br label %join
join:
  %p = phi ptr [ @tl_counter, %two_edges ], [ @tl_counter, %two_edges ], [ @tl_counter, %two_edges ], [ getelementptr inbounds ([8 x i32], ptr @tl_array, i64 0, i64 1), %element ]
  ret ptr %p
}

; CHECK-LABEL: define ptr @choose_element(
; CHECK:       two_edges:
; CHECK-NEXT:    %sim.thread_local = call ptr @llvm.threadlocal.address.p0(ptr @tl_array)
; CHECK-NEXT:    %sim.tls_delta_address = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %sim.tls_delta = load i64, ptr %sim.tls_delta_address
; CHECK-NEXT:    %sim.tls_address = getelementptr i8, ptr %sim.thread_local, i64 %sim.tls_delta
; CHECK-NEXT:    [[ELEMENT:%.*]] = getelementptr inbounds [8 x i32], ptr %sim.tls_address, i64 0, i64 2
; CHECK-NEXT:    switch i32 %which, label %join [
; CHECK:       join:
; CHECK-NEXT:    %p = phi ptr [ [[ELEMENT]], %two_edges ], [ [[ELEMENT]], %two_edges ], [ null, %entry ]
define ptr @choose_element(i1 %element, i32 %which) {
entry:
  br i1 %element, label %two_edges, label %join
two_edges:
  switch i32 %which, label %join [ i32 1, label %join ]
join:
  %p = phi ptr [ getelementptr inbounds ([8 x i32], ptr @tl_array, i64 0, i64 2), %two_edges ], [ getelementptr inbounds ([8 x i32], ptr @tl_array, i64 0, i64 2), %two_edges ], [ null, %entry ]
  ret ptr %p
}
