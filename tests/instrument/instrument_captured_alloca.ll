; Once a stack slot's address escapes (passed to a call, stored to memory),
; another thread may access it, so its accesses are scheduling points.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@published = global ptr null

declare void @start_thread(ptr)

; CHECK-LABEL: define i32 @passed_to_call(
; CHECK: call void @__sim_write4(ptr %slot,
; CHECK: store i32 1, ptr %slot
; CHECK: call void @__sim_read4(ptr %slot,
; CHECK: load i32, ptr %slot
define i32 @passed_to_call() {
  %slot = alloca i32
  call void @start_thread(ptr %slot)
  store i32 1, ptr %slot
  %v = load i32, ptr %slot
  ret i32 %v
}

; Captured through a derived pointer: the whole slot counts as shared.
; CHECK-LABEL: define void @stored_to_global(
; CHECK: call void @__sim_write4(ptr %slot,
; CHECK: store i32 1, ptr %slot
define void @stored_to_global() {
  %slot = alloca [2 x i32]
  %second = getelementptr [2 x i32], ptr %slot, i32 0, i32 1
  store ptr %second, ptr @published
  store i32 1, ptr %slot
  ret void
}
