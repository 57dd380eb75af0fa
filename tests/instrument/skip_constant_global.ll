; Nobody writes a constant global, so reading it cannot race and is not a
; scheduling point. A mutable global is.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@counter = global i32 0

; CHECK-LABEL: define i32 @read_table(
; CHECK-NOT: call void @__sim_
; CHECK: load i32, ptr %p
; CHECK: call void @__sim_read4(ptr @counter,
define i32 @read_table(i64 %i) {
  %p = getelementptr [4 x i32], ptr @table, i64 0, i64 %i
  %a = load i32, ptr %p
  %b = load i32, ptr @counter
  %s = add i32 %a, %b
  ret i32 %s
}
