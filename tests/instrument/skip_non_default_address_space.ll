; Memory in another address space (x86 fs/gs-relative here, GPU memories
; elsewhere) is not the memory simulated threads share, and the hooks take a
; generic pointer, so such accesses get no hook.
; RUN: %sim-opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i64 @gs_relative(
; CHECK-NOT: call void @__sim_
; CHECK: load i64, ptr addrspace(256) %p
; CHECK: call void @__sim_read8(ptr %q,
define i64 @gs_relative(ptr addrspace(256) %p, ptr %q) {
  %a = load i64, ptr addrspace(256) %p
  %b = load i64, ptr %q
  %s = add i64 %a, %b
  ret i64 %s
}
