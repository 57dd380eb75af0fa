// An atomic tested, then set in a separate step: a hand-made try-lock.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <atomic>

class Refresher {
 public:
  void maybe_refresh() {
    if (refreshing_.load()) return;
    refreshing_.store(true);
    rebuild();
    refreshing_.store(false);
  }

 private:
  void rebuild() {}
  std::atomic<bool> refreshing_{false};
};

// CHECK: atomic_load_then_store.cpp:8:9: warning: check-then-act window on Refresher::refreshing_ (check-then-act on an atomic) [sim-gate-finder:atomic-check]
// CHECK: act: {{.*}}:9:5 `refreshing_.store(true)`
// CHECK-NEXT: why: each access to Refresher::refreshing_ is atomic, but the check and the act are two steps
// CHECK-NEXT: fix: one atomic step
// CHECK: insert at {{.*}}:9:5: SIM_GATE("refresher.refreshing");
// CHECK: sim-gate-finder: 1 window
