; Calls that may leave instrumented code get __sim_call_begin before and
; __sim_call_end after (an invoke's on its normal edge), each guarded by
; __sim_races_active, with the callee (null for inline assembly) and the
; first two pointer arguments. A call to a function the module defines, an
; intrinsic or a hook gets none; -sim-hook-calls=false turns them off.
; RUN: %sim-opt -S %s | FileCheck %s
; RUN: %sim-opt -sim-hook-calls=false -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @library_lock(ptr, i32, ptr, ptr)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @defined_here(ptr %p) {
  ret void
}

; CHECK-LABEL: define void @direct(
; CHECK:      load i8, ptr @__sim_races_active
; CHECK:      call void @__sim_call_begin(ptr @library_lock, ptr %lock, ptr %first)
; CHECK:      call void @library_lock(ptr %lock, i32 1, ptr %first, ptr %second)
; CHECK:      load i8, ptr @__sim_races_active
; CHECK:      call void @__sim_call_end(ptr @library_lock, ptr %lock, ptr %first)
; OFF-LABEL:  define void @direct(
; OFF-NOT:    __sim_call
; OFF:        ret void
define void @direct(ptr %lock, ptr %first, ptr %second) {
  call void @library_lock(ptr %lock, i32 1, ptr %first, ptr %second)
  ret void
}

; CHECK-LABEL: define void @not_hooked(
; CHECK-NOT:  __sim_call
; CHECK:      ret void
define void @not_hooked(ptr %p) {
  call void @defined_here(ptr %p)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 0, i1 false)
  ret void
}

; CHECK-LABEL: define void @indirect_and_asm(
; CHECK:      call void @__sim_call_begin(ptr %function, ptr %p, ptr null)
; CHECK:      call void %function(ptr %p)
; CHECK:      call void @__sim_call_end(ptr %function, ptr %p, ptr null)
; CHECK:      call void @__sim_call_begin(ptr null, ptr %p, ptr null)
; CHECK:      call void asm sideeffect "lock incq
; CHECK:      call void @__sim_call_end(ptr null, ptr %p, ptr null)
define void @indirect_and_asm(ptr %function, ptr %p) {
  call void %function(ptr %p)
  call void asm sideeffect "lock incq $0", "=*m,~{memory}"(ptr elementtype(i64) %p)
  ret void
}

; CHECK-LABEL: define void @invoked(
; CHECK:      call void @__sim_call_begin(ptr @may_throw, ptr null, ptr null)
; CHECK:      invoke void @may_throw()
; CHECK-NEXT:   to label %[[NORMAL:.*]] unwind label %unwound
; CHECK:      [[NORMAL]]:
; CHECK:      call void @__sim_call_end(ptr @may_throw, ptr null, ptr null)
; CHECK:      unwound:
; CHECK-NOT:  __sim_call_end
; CHECK:      resume
define void @invoked() personality ptr @__gxx_personality_v0 {
  invoke void @may_throw()
    to label %done unwind label %unwound
done:
  ret void
unwound:
  %caught = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %caught
}
