// With --suppressed, --fix also gates windows that one lock scope closes, so
// the test written for the buggy version runs unchanged against the fix.
// RUN: cp %s %t.cpp
// RUN: %gate-finder --fix %t.cpp -- -std=c++20 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// RUN: %gate-finder --fix --suppressed %t.cpp -- -std=c++20 2>&1 | %FileCheck %s --check-prefix=SUPPRESSED
// RUN: %FileCheck %s --check-prefix=FIXED < %t.cpp
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

// DEFAULT: inserted 0 gates
// SUPPRESSED: note: not a window: Database::pool_
// SUPPRESSED: inserted 1 gate
// FIXED: if (pool_ == nullptr) { SIM_GATE("database.pool"); pool_ = new Pool; }
