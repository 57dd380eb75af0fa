; A constant expression on a thread_local (a GEP into a thread_local array,
; as clang emits for tl_array[3]) cannot take the redirected address as an
; operand, so it becomes an instruction on the redirected address; nested
; ones too.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_array = dso_local thread_local global [8 x i32] zeroinitializer

; CHECK-LABEL: define i32 @read_element(
; CHECK-NEXT:    %sim.thread_local = call ptr @llvm.threadlocal.address.p0(ptr @tl_array)
; CHECK-NEXT:    %sim.tls_delta_address = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %sim.tls_delta = load i64, ptr %sim.tls_delta_address
; CHECK-NEXT:    %sim.tls_address = getelementptr i8, ptr %sim.thread_local, i64 %sim.tls_delta
; CHECK-NEXT:    [[ELEMENT:%.*]] = getelementptr inbounds [8 x i32], ptr %sim.tls_address, i64 0, i64 3
; CHECK-NEXT:    %v = load i32, ptr [[ELEMENT]]
; CHECK-NEXT:    ret i32 %v
define i32 @read_element() {
  %v = load i32, ptr getelementptr inbounds ([8 x i32], ptr @tl_array, i64 0, i64 3)
  ret i32 %v
}

; CHECK-LABEL: define i64 @element_as_integer(
; CHECK-NEXT:    %sim.thread_local = call ptr @llvm.threadlocal.address.p0(ptr @tl_array)
; CHECK-NEXT:    %sim.tls_delta_address = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
; CHECK-NEXT:    %sim.tls_delta = load i64, ptr %sim.tls_delta_address
; CHECK-NEXT:    %sim.tls_address = getelementptr i8, ptr %sim.thread_local, i64 %sim.tls_delta
; CHECK-NEXT:    [[ELEMENT:%.*]] = getelementptr inbounds [8 x i32], ptr %sim.tls_address, i64 0, i64 5
; CHECK-NEXT:    [[INTEGER:%.*]] = ptrtoint ptr [[ELEMENT]] to i64
; CHECK-NEXT:    ret i64 [[INTEGER]]
define i64 @element_as_integer() {
  ret i64 ptrtoint (ptr getelementptr inbounds ([8 x i32], ptr @tl_array, i64 0, i64 5) to i64)
}
