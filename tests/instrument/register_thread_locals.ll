; The runtime has to tell the thread_locals built with the pass (which it can
; move between thread control blocks) from the others: one constructor per
; module passes __sim_register_thread_local the address of the calling
; thread's own copy (not redirected) and the allocation size of each
; thread_local the module defines. Not the ones it only declares or has an
; available_externally copy of, nor the runtime's own (__sim_*). The
; constructor is added after instrumentation, so it has no hooks and no twin.
; RUN: %sim-opt-with-twin -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = dso_local thread_local global i32 0
@tl_record = internal thread_local global { i64, i8 } zeroinitializer
@tl_preemptible = thread_local global [3 x i8] zeroinitializer
@tl_elsewhere = external thread_local global i32
@tl_inline_copy = available_externally thread_local global i32 7
@__sim_runtime_state = thread_local global i32 0
@shared = global i32 0

; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @sim.register_thread_locals, ptr null }]

; Something to instrument, so the twin is on.
define void @store_shared() {
  store i32 1, ptr @shared
  ret void
}

; CHECK:       declare void @__sim_register_thread_local(ptr, i64)

; CHECK-LABEL: define internal void @sim.register_thread_locals() {
; CHECK-NEXT:    [[COUNTER:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
; CHECK-NEXT:    call void @__sim_register_thread_local(ptr [[COUNTER]], i64 4)
; CHECK-NEXT:    [[RECORD:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_record)
; CHECK-NEXT:    call void @__sim_register_thread_local(ptr [[RECORD]], i64 16)
; CHECK-NEXT:    [[PREEMPTIBLE:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @tl_preemptible)
; CHECK-NEXT:    call void @__sim_register_thread_local(ptr [[PREEMPTIBLE]], i64 3)
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
