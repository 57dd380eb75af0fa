// A compare-exchange from the checked value whose result is thrown away: the
// loser goes on as if it had won, so the window is still there.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <atomic>

class Limiter {
 public:
  bool try_acquire() {
    int in_use = in_use_.load();
    if (in_use >= 1) return false;
    in_use_.compare_exchange_strong(in_use, in_use + 1);
    return true;
  }

  // In a retry loop an ignored CAS only helps: the loop reads again.
  void advance_helping(int to) {
    for (;;) {
      int seen = in_use_.load();
      if (seen >= to) return;
      in_use_.compare_exchange_strong(seen, to);
    }
  }

  bool try_acquire_checked() {
    int in_use = in_use_.load();
    if (in_use >= 1) return false;
    return in_use_.compare_exchange_strong(in_use, in_use + 1);
  }

 private:
  std::atomic<int> in_use_{0};
};

// CHECK: atomic_cas_result_ignored.cpp:9:18: warning: check-then-act window on Limiter::in_use_ (check-then-act on an atomic)
// CHECK: act: {{.*}}:11:5 `in_use_.compare_exchange_strong(in_use, in_use + 1)`
// CHECK-NEXT: why: {{.*}}the act's compare_exchange_strong would catch that, but its result is ignored
// CHECK-NEXT: fix: use the compare_exchange_strong result
// The window starts at the load into the local: the gate goes right after it.
// CHECK: insert at {{.*}}:10:5: SIM_GATE("limiter.in_use");
// CHECK-NOT: atomic_cas_result_ignored.cpp:{{18|19|20|25|26|27}}:
// CHECK: sim-gate-finder: 1 window
