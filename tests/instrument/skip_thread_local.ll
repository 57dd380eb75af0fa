; Each thread has its own copy of a thread_local, so no other thread can
; observe its accesses: not a scheduling point, whether the access names the
; global, goes through llvm.threadlocal.address, through the Itanium TLS
; wrapper (_ZTW<var>) clang calls for thread_locals with dynamic init, or
; through __sim_tls_address, the form the pass itself redirects to. (The
; redirection and the registration call are tested by redirect_*.ll and
; register_thread_locals.ll; here only the access hooks must be missing.)
; RUN: %sim-opt -S %s | FileCheck %s \
; RUN:   --implicit-check-not='call void @__sim_{{read|write|atomic}}'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tl_counter = thread_local global i32 0
@tl_name = thread_local global [32 x i8] zeroinitializer

declare ptr @llvm.threadlocal.address.p0(ptr)
declare ptr @_ZTW7tl_name()
declare ptr @__sim_tls_address(ptr)

; CHECK-LABEL: define void @direct(
; CHECK: store i32 1, ptr %sim.tls_address
define void @direct() {
  store i32 1, ptr @tl_counter
  ret void
}

; CHECK-LABEL: define i32 @through_intrinsic(
; CHECK: load i32, ptr %sim.tls_address
; CHECK: store i32 %inc, ptr %sim.tls_address
define i32 @through_intrinsic() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  %v = load i32, ptr %addr
  %inc = add i32 %v, 1
  store i32 %inc, ptr %addr
  ret i32 %v
}

; CHECK-LABEL: define i64 @through_tls_wrapper(
; CHECK: load i64, ptr %length
define i64 @through_tls_wrapper() {
  %name = call ptr @_ZTW7tl_name()
  %length = getelementptr i8, ptr %name, i64 8
  %v = load i64, ptr %length
  ret i64 %v
}

; CHECK-LABEL: define void @atomic_on_thread_local(
; CHECK: atomicrmw add ptr %sim.tls_address
define void @atomic_on_thread_local() {
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @tl_counter)
  %old = atomicrmw add ptr %addr, i32 1 seq_cst
  ret void
}

; CHECK-LABEL: define void @through_redirected_address(
; CHECK: store i32 1, ptr %copy
define void @through_redirected_address(ptr %installed) {
  %copy = call ptr @__sim_tls_address(ptr %installed)
  store i32 1, ptr %copy
  ret void
}
