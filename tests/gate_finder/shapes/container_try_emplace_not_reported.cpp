// try_emplace checks and inserts in one call: nothing to split.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <map>
#include <mutex>
#include <string>

class Claims {
 public:
  bool claim(const std::string& key) {
    std::lock_guard lock(mutex_);
    return owners_.try_emplace(key, 1).second;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, int> owners_;
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
