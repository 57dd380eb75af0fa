// The check and the act under one lock_guard: no window.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
// RUN: %gate-finder --suppressed %s -- -std=c++20 | %FileCheck %s --check-prefix=SUPPRESSED
#include <mutex>

struct Pool {};

class Database {
 public:
  Pool* pool() {
    std::lock_guard lock(mutex_);
    if (pool_ == nullptr) pool_ = new Pool;
    return pool_;
  }

 private:
  std::mutex mutex_;
  Pool* pool_ = nullptr;
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
// SUPPRESSED: note: not a window: Database::pool_ (lazy initialisation)
// SUPPRESSED: why: suppressed: one lock scope, mutex_ (lock_guard, line 11), is held at both ends
