; A gate name may spell out the template arguments to pick one
; instantiation.
; RUN: %sim-opt -sim-gate='ns::twice<int>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @_ZN2ns5twiceIiEET_S1_(
; CHECK:         call void @__sim_gate(
define i32 @_ZN2ns5twiceIiEET_S1_(i32 %x) {
  %r = mul i32 %x, 2
  ret i32 %r
}

; CHECK-LABEL: define i64 @_ZN2ns5twiceIlEET_S1_(
; CHECK-NOT:     __sim_gate
; CHECK:         ret i64
define i64 @_ZN2ns5twiceIlEET_S1_(i64 %x) {
  %r = mul i64 %x, 2
  ret i64 %r
}
