// No other thread can see an object during its constructor or destructor.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <mutex>

struct Pool {};

class Database {
 public:
  Database() {
    if (pool_ == nullptr) pool_ = new Pool;
  }
  ~Database() {
    if (pool_ != nullptr) pool_ = nullptr;
  }

 private:
  std::mutex mutex_;
  Pool* pool_ = nullptr;
};

// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 0 windows
