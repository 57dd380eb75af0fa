// Running --fix again finds the window again (it is still there) but does not
// insert its gate a second time.
// RUN: cp %s %t.cpp
// RUN: %gate-finder --fix %t.cpp -- -std=c++20 -I%S/../../../include
// RUN: %gate-finder --fix %t.cpp -- -std=c++20 -I%S/../../../include 2>&1 | %FileCheck %s --check-prefix=SECOND
// RUN: grep -c '^ *SIM_GATE("jobs.queue");' %t.cpp | %FileCheck %s --check-prefix=COUNT
// RUN: grep -c '^#include <sim/sim.h>' %t.cpp | %FileCheck %s --check-prefix=COUNT
#include <deque>
#include <mutex>

class Jobs {
 public:
  int take() {
    if (queue_.empty()) return 0;
    std::lock_guard lock(mutex_);
    int job = queue_.front();
    queue_.pop_front();
    return job;
  }

 private:
  std::mutex mutex_;
  std::deque<int> queue_;
};

// SECOND: sim-gate-finder: 1 window
// SECOND: sim-gate-finder: inserted 0 gates
// COUNT: {{^1$}}
