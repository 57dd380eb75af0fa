// How a gate reaches the pass through clang (see instrument/README.md):
// -fpass-plugin loads the plugin too late for -mllvm to know -sim-gate, so
// the plugin is also loaded with -Xclang -load.
//
// RUN: %clangxx -std=c++20 -O2 -S -emit-llvm -fpass-plugin=%plugin \
// RUN:   -Xclang -load -Xclang %plugin -mllvm -sim-gate=Repository::fetch \
// RUN:   %s -o - | FileCheck %s

// CHECK: @[[NAME:sim\.str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"Repository::fetch\00"

struct Repository {
  int fetch(int key) const;
  int size() const;
  int base = 0;
};

// CHECK-LABEL: define {{.*}} @_ZNK10Repository5fetchEi(
// CHECK:         call void @__sim_gate(ptr @[[NAME]],
int Repository::fetch(int key) const { return key + base; }

// CHECK-LABEL: define {{.*}} @_ZNK10Repository4sizeEv(
// CHECK-NOT:     __sim_gate
// CHECK:         ret i32
int Repository::size() const { return base; }
