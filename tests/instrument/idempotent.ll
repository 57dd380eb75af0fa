; The pass marks the module with the flag "sim.instrumented" and does
; nothing when it is already there, so running it twice (e.g. opt after a
; clang that already had the plugin) puts one hook before each access,
; redirects each thread_local address once and registers each thread_local
; once.
; RUN: %sim-opt -S %s | %sim-opt -S | FileCheck %s
; RUN: %sim-opt -passes=sim -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0
@tl_counter = dso_local thread_local global i32 0

; CHECK-LABEL: define void @store_global(
; CHECK: call void @__sim_write4(ptr @g,
; CHECK-NOT: call void @__sim_write4(
; CHECK: ret void
define void @store_global() {
  store i32 1, ptr @g
  ret void
}

; CHECK-LABEL: define void @store_thread_local(
; CHECK: load i64, ptr %sim.tls_delta_address
; CHECK-NOT: __sim_tls_delta
; CHECK: ret void
define void @store_thread_local() {
  store i32 1, ptr @tl_counter
  ret void
}

; CHECK-LABEL: define internal void @sim.register_thread_locals(
; CHECK: call void @__sim_register_thread_local(
; CHECK-NOT: call void @__sim_register_thread_local(
; CHECK: ret void
; CHECK-NOT: define internal void @sim.register_thread_locals

; CHECK: !{i32 7, !"sim.instrumented", i32 1}
