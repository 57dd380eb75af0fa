// !empty(), then front() and pop(), with the lock dropped in between.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <mutex>
#include <queue>

class Jobs {
 public:
  bool run_one() {
    mutex_.lock();
    const bool has_work = !queue_.empty();
    mutex_.unlock();
    if (has_work) {
      std::lock_guard lock(mutex_);
      int job = queue_.front();
      queue_.pop();
      return job != 0;
    }
    return false;
  }

 private:
  std::mutex mutex_;
  std::queue<int> queue_;
};

// CHECK: container_empty_then_pop.cpp:10:27: warning: check-then-act window on Jobs::queue_ (check-then-act on a container)
// CHECK-NEXT: check: {{.*}}:10:27 `!queue_.empty()`; locks held: mutex_ (mutex_.lock(), line 9)
// CHECK-NEXT: act: {{.*}}:15:7 `queue_.pop()`; locks held: mutex_ (lock_guard, line 13)
// The gate goes after the unlock: a caller parked at it holds nothing.
// CHECK: insert at {{.*}}:12:5: SIM_GATE("jobs.queue");
// CHECK: sim-gate-finder: 1 window
