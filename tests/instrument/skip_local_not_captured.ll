; A stack slot whose address never leaves the function is visible to this
; thread only, so its accesses are not scheduling points.
; RUN: %sim-opt -S %s | FileCheck %s --implicit-check-not='call void @__sim_'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @private_slot(
; CHECK: store i32 %x, ptr %slot
; CHECK: load i32, ptr %field
define i32 @private_slot(i32 %x) {
  %slot = alloca i32
  %pair = alloca { i32, i32 }
  store i32 %x, ptr %slot
  %field = getelementptr { i32, i32 }, ptr %pair, i32 0, i32 1
  store i32 %x, ptr %field
  %v = load i32, ptr %field
  ret i32 %v
}
