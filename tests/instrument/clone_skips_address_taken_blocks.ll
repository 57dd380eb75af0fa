; A function whose blocks have their address taken (computed goto) gets no
; uninstrumented copy: the blockaddress constants name the original blocks,
; so the copy's indirectbr would jump back into the instrumented body. Its
; accesses are still instrumented in place.
; RUN: %sim-opt-with-twin -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

; CHECK-LABEL: define void @computed_goto(
; CHECK-NOT:     sim.dispatch
; CHECK-NOT:     .native
; CHECK:         call void @__sim_write4(ptr @g,
; CHECK-NOT:     .native
; CHECK:         ret void
define void @computed_goto(i1 %c) {
entry:
  %target = select i1 %c, ptr blockaddress(@computed_goto, %a), ptr blockaddress(@computed_goto, %b)
  indirectbr ptr %target, [label %a, label %b]
a:
  store i32 1, ptr @g
  br label %b
b:
  ret void
}
