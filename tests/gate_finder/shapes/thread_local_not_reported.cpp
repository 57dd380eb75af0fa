// Each thread has its own copy: no other thread can act in the window.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <thread>

struct Buffer {};
thread_local Buffer* scratch = nullptr;
Buffer* shared_scratch = nullptr;

Buffer* get_scratch() {
  if (scratch == nullptr) scratch = new Buffer;
  return scratch;
}

// The same code on a namespace-scope variable is a window: the test can fail.
Buffer* get_shared_scratch() {
  if (shared_scratch == nullptr) shared_scratch = new Buffer;
  return shared_scratch;
}

void use() { std::thread([] { get_scratch(); }).join(); }

// CHECK-NOT: thread_local_not_reported.cpp:10
// CHECK: thread_local_not_reported.cpp:16:7: warning: check-then-act window on shared_scratch (lazy initialisation)
// CHECK: gate: thread_local_not_reported.shared_scratch
// CHECK-NEXT: insert at {{.*}}:16:34: SIM_GATE("thread_local_not_reported.shared_scratch");
// CHECK: std::thread first([&] { get_shared_scratch(); });
// CHECK: sim-gate-finder: 1 window
