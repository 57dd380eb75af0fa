// The act uses another key than the check: not the checked entry's window.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <map>
#include <mutex>
#include <string>

class Index {
 public:
  void link(const std::string& from, const std::string& to) {
    if (edges_.find(from) == edges_.end()) {
      std::lock_guard lock(mutex_);
      edges_[to] = from;
    }
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> edges_;
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
