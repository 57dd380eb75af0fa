; An instrumented function keeps an uninstrumented copy of its body (blocks
; suffixed .native) and chooses once at entry, so outside a world it runs the
; body as optimised (e.g. vectorised) before instrumentation. Static allocas
; move to the new entry block, shared by both bodies.
; RUN: %sim-opt-with-twin -sim-hook-calls=false -S %s | FileCheck %s
; (The race detector's hooks around calls are hook_calls.ll's to test.)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@data = global [1024 x i32] zeroinitializer

declare void @use(ptr)

; CHECK-LABEL: define void @fill(
; CHECK-NEXT:  sim.dispatch:
; CHECK-NEXT:    %escaped = alloca i32
; CHECK-NEXT:    %sim.world_active = load i8, ptr @__sim_world_active
; CHECK-NEXT:    %sim.in_world = icmp ne i8 %sim.world_active, 0
; CHECK-NEXT:    br i1 %sim.in_world, label %entry, label %entry.native, !prof ![[UNLIKELY:[0-9]+]]
;
; The world side is the original body, instrumented:
; CHECK:       entry:
; CHECK-NEXT:    call void @use(ptr %escaped)
; CHECK:       loop:
; CHECK:         call void @__sim_write4(ptr %slot,
; CHECK:         store i32 %value, ptr %slot
;
; The copy has the same code and no hook:
; CHECK:       entry.native:
; CHECK-NEXT:    call void @use(ptr %escaped)
; CHECK-NEXT:    br label %loop.native
; CHECK:       loop.native:
; CHECK-NEXT:    %i.native = phi i64 [ 0, %entry.native ], [ %next.native, %loop.native ]
; CHECK-NEXT:    %slot.native = getelementptr [1024 x i32], ptr @data, i64 0, i64 %i.native
; CHECK-NEXT:    %value.native = trunc i64 %i.native to i32
; CHECK-NEXT:    store i32 %value.native, ptr %slot.native
; CHECK-NEXT:    %next.native = add i64 %i.native, 1
; CHECK-NEXT:    %done.native = icmp eq i64 %next.native, 1024
; CHECK-NEXT:    br i1 %done.native, label %exit.native, label %loop.native
; CHECK:       exit.native:
; CHECK-NEXT:    ret void
define void @fill() {
entry:
  %escaped = alloca i32
  call void @use(ptr %escaped)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %slot = getelementptr [1024 x i32], ptr @data, i64 0, i64 %i
  %value = trunc i64 %i to i32
  store i32 %value, ptr %slot
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A function with nothing to instrument is left as it was.
; CHECK-LABEL: define i32 @pure(
; CHECK-NEXT:    %r = add i32 %x, 1
; CHECK-NEXT:    ret i32 %r
define i32 @pure(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

; CHECK: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
