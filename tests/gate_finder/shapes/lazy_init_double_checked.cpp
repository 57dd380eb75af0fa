// Correct double-checked locking: re-checked under the lock the build holds.
// Not reported; --suppressed says why.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s --check-prefix=DEFAULT
// RUN: %gate-finder --suppressed %s -- -std=c++20 | %FileCheck %s --check-prefix=SUPPRESSED
#include <atomic>
#include <mutex>

struct Pool {};

class Database {
 public:
  Pool* pool() {
    if (pool_.load() == nullptr) {
      std::lock_guard lock(mutex_);
      if (pool_.load() == nullptr) pool_.store(new Pool);
    }
    return pool_.load();
  }

 private:
  std::mutex mutex_;
  std::atomic<Pool*> pool_{nullptr};
};

// DEFAULT-NOT: warning:
// DEFAULT: sim-gate-finder: 0 windows
// SUPPRESSED: lazy_init_double_checked.cpp:13:9: note: not a window: Database::pool_
// SUPPRESSED-NEXT: check: {{.*}}:13:9 `pool_.load() == nullptr`; locks held: none
// SUPPRESSED: why: suppressed: Database::pool_ is checked again at line 15, under the lock the act holds
// SUPPRESSED: lazy_init_double_checked.cpp:15:11: note: not a window: Database::pool_
// SUPPRESSED: why: suppressed: one lock scope, mutex_ (lock_guard, line 14), is held at both ends
// SUPPRESSED: sim-gate-finder: 0 windows, 2 suppressed
