; A plain read that a plain write of the same pointer and size follows in
; its basic block, with no call, atomic or fence between, gets a site with
; read_then_written = 1 (the last field): the race detector checks the
; write alone, as ThreadSanitizer does. Every other read keeps 0, and every
; read keeps its hook (a scheduling point).
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@x = global i32 0
@y = global i32 0
@wide = global i64 0

declare void @opaque()

; Without debug locations, a site is "<unknown>" and its function's name:
; one read_then_written site and one other site per function.
; CHECK-DAG: @[[INCREMENT:sim\.str[.0-9]*]] = {{.*}} c"increment\00"
; CHECK-DAG: @[[OTHER:sim\.str[.0-9]*]] = {{.*}} c"other_access_between\00"
; CHECK-DAG: @[[CALL:sim\.str[.0-9]*]] = {{.*}} c"call_between\00"
; CHECK-DAG: @[[ATOMIC:sim\.str[.0-9]*]] = {{.*}} c"atomic_between\00"
; CHECK-DAG: @[[NARROWER:sim\.str[.0-9]*]] = {{.*}} c"narrower_write\00"
; CHECK-DAG: @[[BLOCK:sim\.str[.0-9]*]] = {{.*}} c"write_in_another_block\00"
; CHECK-DAG: @[[VOLATILE:sim\.str[.0-9]*]] = {{.*}} c"volatile_write\00"
; CHECK-DAG: @[[INCREMENT_COVERED:sim\.site[.0-9]*]] = {{.*}} ptr @[[INCREMENT]], i32 0, i32 0, i64 {{[0-9]+}}, i32 1 }
; CHECK-DAG: @[[INCREMENT_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[INCREMENT]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }
; CHECK-DAG: @[[OTHER_COVERED:sim\.site[.0-9]*]] = {{.*}} ptr @[[OTHER]], i32 0, i32 0, i64 {{[0-9]+}}, i32 1 }
; CHECK-DAG: @[[OTHER_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[OTHER]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }
; CHECK-DAG: @[[CALL_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[CALL]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }
; CHECK-DAG: @[[ATOMIC_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[ATOMIC]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }
; CHECK-DAG: @[[NARROWER_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[NARROWER]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }
; CHECK-DAG: @[[BLOCK_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[BLOCK]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }
; CHECK-DAG: @[[VOLATILE_CHECKED:sim\.site[.0-9]*]] = {{.*}} ptr @[[VOLATILE]], i32 0, i32 0, i64 {{[0-9]+}}, i32 0 }

; x++: the write checks the read.
; CHECK-LABEL: define void @increment(
; CHECK: call void @__sim_read4(ptr @x, ptr @[[INCREMENT_COVERED]])
; CHECK: call void @__sim_write4(ptr @x, ptr @[[INCREMENT_CHECKED]])
define void @increment() {
  %v = load i32, ptr @x
  %n = add i32 %v, 1
  store i32 %n, ptr @x
  ret void
}

; Another address's access between changes nothing.
; CHECK-LABEL: define void @other_access_between(
; CHECK: call void @__sim_read4(ptr @x, ptr @[[OTHER_COVERED]])
; CHECK: call void @__sim_read4(ptr @y, ptr @[[OTHER_CHECKED]])
define void @other_access_between() {
  %v = load i32, ptr @x
  %w = load i32, ptr @y
  %n = add i32 %v, %w
  store i32 %n, ptr @x
  ret void
}

; A call between may synchronise (unlock, then lock): the read is checked.
; CHECK-LABEL: define void @call_between(
; CHECK: call void @__sim_read4(ptr @x, ptr @[[CALL_CHECKED]])
define void @call_between() {
  %v = load i32, ptr @x
  call void @opaque()
  store i32 %v, ptr @x
  ret void
}

; So may an atomic operation or a fence (an acquire orders the write only).
; CHECK-LABEL: define void @atomic_between(
; CHECK: call void @__sim_read4(ptr @x, ptr @[[ATOMIC_CHECKED]])
; CHECK: call void @__sim_read4(ptr @x, ptr @[[ATOMIC_CHECKED]])
define void @atomic_between() {
  %v = load i32, ptr @x
  %f = load atomic i32, ptr @y acquire, align 4
  store i32 %v, ptr @x
  %w = load i32, ptr @x
  fence acquire
  store i32 %w, ptr @x
  ret void
}

; A narrower write would leave bytes of the read unchecked.
; CHECK-LABEL: define void @narrower_write(
; CHECK: call void @__sim_read8(ptr @wide, ptr @[[NARROWER_CHECKED]])
define void @narrower_write() {
  %v = load i64, ptr @wide
  store i32 0, ptr @wide
  ret void
}

; The write in another block may not run.
; CHECK-LABEL: define void @write_in_another_block(
; CHECK: call void @__sim_read4(ptr @x, ptr @[[BLOCK_CHECKED]])
define void @write_in_another_block(i1 %c) {
  %v = load i32, ptr @x
  br i1 %c, label %write, label %done
write:
  store i32 1, ptr @x
  br label %done
done:
  ret void
}

; Volatile accesses are each checked.
; CHECK-LABEL: define void @volatile_write(
; CHECK: call void @__sim_read4(ptr @x, ptr @[[VOLATILE_CHECKED]])
define void @volatile_write() {
  %v = load i32, ptr @x
  store volatile i32 %v, ptr @x
  ret void
}
