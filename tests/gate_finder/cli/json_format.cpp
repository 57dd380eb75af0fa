// --format=json: one array, a record per window with both ends, their locks,
// the gate, its line, where it goes and the test.
// RUN: %gate-finder --format=json %s -- -std=c++20 > %t.json
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d), d[0]['shape'], d[0]['object'], d[0]['check']['line'], d[0]['act']['line'], d[0]['act']['locks'], d[0]['gate'], d[0]['insert_at']['line'], d[0]['suppressed'], 'SIM_TEST' in d[0]['test'])" %t.json | %FileCheck %s
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

// CHECK: 1 lazy-init Database::pool_ 12 14 ['mutex_ (lock_guard, line 13)'] database.pool 13 False True
