// `if`, not `while`, around a condition-variable wait: the wait releases the
// lock, so the act after it no longer follows from the check. No gate can
// hold a window inside wait(), so none is proposed; the while form is fine.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <condition_variable>
#include <mutex>

class WorkQueue {
 public:
  int pop() {
    std::unique_lock lock(mutex_);
    if (count_ == 0) not_empty_.wait(lock);
    --count_;
    return count_;
  }

  int pop_looping() {
    std::unique_lock lock(mutex_);
    while (count_ == 0) not_empty_.wait(lock);
    --count_;
    return count_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable not_empty_;
  int count_ = 0;
};

// CHECK: wait_in_if.cpp:12:9: warning: check-then-act window on WorkQueue::count_
// CHECK-NEXT: check: {{.*}}; locks held: mutex_ (unique_lock, line 11)
// CHECK-NEXT: act: {{.*}}:13:5 `--count_`; locks held: mutex_ (re-taken by not_empty_.wait(), line 12)
// CHECK-NEXT: why: the wait releases mutex_ between the check and the act
// CHECK-NEXT: fix: wait in a loop
// CHECK: no gate can be inserted: the window is inside the wait
// CHECK-NOT: SIM_TEST
// CHECK-NOT: wait_in_if.cpp:19
// CHECK: sim-gate-finder: 1 window
