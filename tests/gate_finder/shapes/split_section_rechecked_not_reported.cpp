// Read under one scope, then re-checked under the scope that writes.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <mutex>

class Bin {
 public:
  int available() {
    std::lock_guard lock(mutex_);
    return stock_;
  }

  bool reserve(int quantity) {
    if (available() < quantity) return false;
    std::lock_guard lock(mutex_);
    if (stock_ < quantity) return false;
    stock_ -= quantity;
    return true;
  }

 private:
  std::mutex mutex_;
  int stock_ = 5;
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
