; -sim-gate=Qualified::name makes the entry of every function with that
; demangled name (without parameters; with or without template arguments)
; call __sim_gate(name, site), behind the same fast path as the hooks, after
; the entry block's allocas so they stay static. Other functions are not
; touched.
; RUN: %sim-opt -sim-gate=Repository::fetch,ns::twice,c_function -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-DAG: @[[FETCH:sim\.str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"Repository::fetch\00"
; CHECK-DAG: @[[TWICE:sim\.str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"ns::twice\00"
; CHECK-DAG: @[[CFUNC:sim\.str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"c_function\00"

; Repository::fetch(int) const
; CHECK-LABEL: define i32 @_ZNK10Repository5fetchEi(
; CHECK-NEXT:    %slot = alloca i32
; CHECK-NEXT:    %sim.world_active = load i8, ptr @__sim_world_active
; CHECK-NEXT:    %sim.in_world = icmp ne i8 %sim.world_active, 0
; CHECK-NEXT:    br i1 %sim.in_world, label %[[GATE:.*]], label %[[BODY:.*]], !prof
; CHECK:       [[GATE]]:
; CHECK-NEXT:    call void @__sim_gate(ptr @[[FETCH]], ptr @sim.site
; CHECK:       [[BODY]]:
; CHECK-NEXT:    store i32 %k, ptr %slot
define i32 @_ZNK10Repository5fetchEi(ptr %this, i32 %k) {
  %slot = alloca i32
  store i32 %k, ptr %slot
  %v = load i32, ptr %slot
  ret i32 %v
}

; Repository::other(): not named, not a gate.
; CHECK-LABEL: define i32 @_ZN10Repository5otherEv(
; CHECK-NOT:     __sim_gate
; CHECK:         ret i32 2
define i32 @_ZN10Repository5otherEv(ptr %this) {
  ret i32 2
}

; int ns::twice<int>(int), named without its template arguments.
; CHECK-LABEL: define i32 @_ZN2ns5twiceIiEET_S1_(
; CHECK:         call void @__sim_gate(ptr @[[TWICE]],
define i32 @_ZN2ns5twiceIiEET_S1_(i32 %x) {
  %r = mul i32 %x, 2
  ret i32 %r
}

; An extern "C" function is named by its symbol.
; CHECK-LABEL: define i32 @c_function(
; CHECK:         call void @__sim_gate(ptr @[[CFUNC]],
define i32 @c_function() {
  ret i32 4
}
