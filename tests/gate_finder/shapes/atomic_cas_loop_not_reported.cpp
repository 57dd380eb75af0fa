// The act is a compare-exchange that re-checks the value: no window.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <atomic>

class Limiter {
 public:
  bool try_acquire() {
    int in_use = in_use_.load();
    do {
      if (in_use >= 1) return false;
    } while (!in_use_.compare_exchange_weak(in_use, in_use + 1));
    return true;
  }

  void claim_once() {
    if (!claimed_.load()) {
      if (claimed_.exchange(true)) return;
    }
  }

 private:
  std::atomic<int> in_use_{0};
  std::atomic<bool> claimed_{false};
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
