; Every instrumented module defines __sim_instrumented as a weak_odr
; constant 1 so the runtime (which refers to it weakly) can tell whether the
; program was built with the pass; a module with no access still gets it.
; RUN: %sim-opt -S %s | FileCheck %s
; RUN: sed 's/^;DECLARED //' %s | %sim-opt -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; A declaration, as from code that includes sim_interface.h, becomes the
; definition.
;DECLARED @__sim_instrumented = external constant i8

; CHECK: @__sim_instrumented = weak_odr constant i8 1
