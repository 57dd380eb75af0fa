// In a lock-free class the plain fields beside the atomics are the owning
// thread's (a single producer's cursor): not shared, so not reported, unless
// the unit itself starts threads. The atomic field's own check-then-act is.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <atomic>
#include <cstddef>

class SingleProducerLog {
 public:
  void append(int value) {
    if (cursor_ == capacity_) cursor_ = 0;
    slots_[cursor_] = value;
    ++cursor_;
    if (published_.load() == 0) published_.store(1);
  }

 private:
  int slots_[8] = {};
  std::size_t cursor_ = 0;
  std::size_t capacity_ = 8;
  std::atomic<int> published_{0};
};

// CHECK-NOT: cursor_
// CHECK: lock_free_owner_fields_not_reported.cpp:14:9: warning: check-then-act window on SingleProducerLog::published_ (check-then-act on an atomic)
// CHECK-NOT: cursor_
// CHECK: sim-gate-finder: 1 window
