// --fix inserts the SIM_GATE line at the window and #include <sim/sim.h>
// after the last #include, and the result still compiles.
// RUN: cp %s %t.cpp
// RUN: %gate-finder --fix %t.cpp -- -std=c++20 2>&1 | %FileCheck %s --check-prefix=TOOL
// RUN: %FileCheck %s --check-prefix=FIXED < %t.cpp
// RUN: clang++-19 -std=c++20 -fsyntax-only -I%S/../../../include %t.cpp
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

// TOOL: sim-gate-finder: inserted 1 gate
// FIXED: #include <mutex>
// FIXED-NEXT: #include <sim/sim.h>  // SIM_GATE (sim-gate-finder --fix)
// FIXED: if (pool_ == nullptr) {
// FIXED-NEXT: {{^      SIM_GATE\("database.pool"\);$}}
// FIXED-NEXT: {{^      std::lock_guard lock\(mutex_\);$}}
// FIXED-NEXT: pool_ = new Pool;
