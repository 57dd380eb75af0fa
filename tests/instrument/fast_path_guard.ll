; Every hook sits behind an inline fast path: one byte load of
; __sim_world_active, a compare with zero and a branch marked unlikely, so
; outside a world an access costs a load and a predictable branch.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

; CHECK: @__sim_world_active = external global i8

; CHECK-LABEL: define void @store_global(
; CHECK-NEXT:    %sim.world_active = load i8, ptr @__sim_world_active, align 1
; CHECK-NEXT:    %sim.in_world = icmp ne i8 %sim.world_active, 0
; CHECK-NEXT:    br i1 %sim.in_world, label %[[HOOK:.*]], label %[[ACCESS:.*]], !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       [[HOOK]]:
; CHECK-NEXT:    call void @__sim_write4(ptr @g, ptr @sim.site)
; CHECK-NEXT:    br label %[[ACCESS]]
; CHECK:       [[ACCESS]]:
; CHECK-NEXT:    store i32 1, ptr @g
; CHECK-NEXT:    ret void
define void @store_global() {
  store i32 1, ptr @g
  ret void
}

; CHECK: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
