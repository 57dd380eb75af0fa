; Loads and stores of 1, 2, 4, 8 and 16 bytes call the hook of that size
; before the access, which stays as it was.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g8 = global i8 0
@g16 = global i16 0
@g32 = global i32 0
@g64 = global i64 0
@g128 = global i128 0
@gdouble = global double 0.0
@gptr = global ptr null

; CHECK-LABEL: define void @loads(
define void @loads() {
; CHECK: call void @__sim_read1(ptr @g8, ptr @sim.site
; CHECK: load i8, ptr @g8
  %a = load i8, ptr @g8
; CHECK: call void @__sim_read2(ptr @g16,
; CHECK: load i16, ptr @g16
  %b = load i16, ptr @g16
; CHECK: call void @__sim_read4(ptr @g32,
; CHECK: load i32, ptr @g32
  %c = load i32, ptr @g32
; CHECK: call void @__sim_read8(ptr @g64,
; CHECK: load i64, ptr @g64
  %d = load i64, ptr @g64
; CHECK: call void @__sim_read16(ptr @g128,
; CHECK: load i128, ptr @g128
  %e = load i128, ptr @g128
; CHECK: call void @__sim_read8(ptr @gdouble,
  %f = load double, ptr @gdouble
; CHECK: call void @__sim_read8(ptr @gptr,
  %p = load ptr, ptr @gptr
  ret void
}

; CHECK-LABEL: define void @stores(
define void @stores() {
; CHECK: call void @__sim_write1(ptr @g8,
; CHECK: store i8 1, ptr @g8
  store i8 1, ptr @g8
; CHECK: call void @__sim_write2(ptr @g16,
; CHECK: store i16 1, ptr @g16
  store i16 1, ptr @g16
; CHECK: call void @__sim_write4(ptr @g32,
; CHECK: store i32 1, ptr @g32
  store i32 1, ptr @g32
; CHECK: call void @__sim_write8(ptr @g64,
; CHECK: store i64 1, ptr @g64
  store i64 1, ptr @g64
; CHECK: call void @__sim_write16(ptr @g128,
; CHECK: store i128 1, ptr @g128
  store i128 1, ptr @g128
  ret void
}

; A pointer argument may point anywhere, so it is instrumented too.
; CHECK-LABEL: define i32 @through_argument(
; CHECK: call void @__sim_read4(ptr %p,
; CHECK: load i32, ptr %p
define i32 @through_argument(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
