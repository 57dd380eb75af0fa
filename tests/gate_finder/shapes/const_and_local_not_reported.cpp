// A const object is never acted on, a local is never shared, and a class
// with no sign of concurrency in a unit that starts no thread is left alone.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <map>
#include <string>

const std::map<std::string, int> kDefaults = {{"port", 80}};

int lookup(const std::string& key) {
  std::map<std::string, int> local;
  if (local.find(key) == local.end()) local[key] = 1;
  if (kDefaults.find(key) == kDefaults.end()) return 0;
  return kDefaults.at(key);
}

class Counter {
 public:
  void bump() {
    if (count_ < 10) count_ = count_ + 1;
  }

 private:
  int count_ = 0;
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
