// A value read under one lock_guard scope and written back under another.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <cstddef>
#include <mutex>

class AppendLog {
 public:
  void append() {
    std::size_t index;
    {
      std::lock_guard lock(mutex_);
      index = size_;
    }
    write_slowly();
    std::lock_guard lock(mutex_);
    size_ = index + 1;
  }

 private:
  void write_slowly() {}
  std::mutex mutex_;
  std::size_t size_ = 0;
};

// CHECK: split_section_two_lock_scopes.cpp:12:15: warning: check-then-act window on AppendLog::size_ (read-modify-write split over two sections) [sim-gate-finder:split-section]
// CHECK-NEXT: check: {{.*}}:12:15 `size_`; locks held: mutex_ (lock_guard, line 11)
// CHECK-NEXT: act: {{.*}}:16:5 `size_ = index + 1`; locks held: mutex_ (lock_guard, line 15)
// CHECK: insert at {{.*}}:14:5: SIM_GATE("append_log.size");
// CHECK: sim-gate-finder: 1 window
