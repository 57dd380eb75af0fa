// Checked without the lock, built under it, never re-checked under it: the
// half-fixed double-checked form. Both callers build.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <mutex>

struct Pool {};

class Database {
 public:
  Pool* pool() {
    if (pool_ == nullptr) {
      std::lock_guard lock(mutex_);
      pool_ = new Pool;
    }
    return pool_;
  }

 private:
  std::mutex mutex_;
  Pool* pool_ = nullptr;
};

// CHECK: lazy_init_lock_without_recheck.cpp:11:9: warning: check-then-act window on Database::pool_ (lazy initialisation)
// CHECK: act: {{.*}}:13:7 `pool_ = new Pool`; locks held: mutex_ (lock_guard, line 12)
// CHECK-NEXT: why: the act holds mutex_ but the check does not, and Database::pool_ is not checked again under it
// CHECK-NEXT: fix: check Database::pool_ again under mutex_ before acting
// The gate goes before the lock, so a parked caller holds nothing.
// CHECK: insert at {{.*}}lazy_init_lock_without_recheck.cpp:12:7: SIM_GATE("database.pool");
// CHECK: sim-gate-finder: 1 window
