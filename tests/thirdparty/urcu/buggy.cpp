// The buggy twin of correct.cpp: the writer publishes a new configuration
// with rcu_xchg_pointer and deletes the old one at once, without waiting for
// a grace period (no synchronize_rcu, no call_rcu). A reader that fetched
// the old pointer inside its read-side critical section is still using it,
// and reads freed memory. Users write this because the pointer swap is
// atomic, and "nobody can reach the old version any more" feels true the
// moment the swap is done; RCU's point is that readers already holding it
// still can.
#include <urcu.h>

#include <cassert>
#include <thread>

namespace {

constexpr int kTotal = 100;
constexpr int kVersions = 4;
constexpr int kLookups = 8;

struct Config {
  int primary;
  int secondary;  // always kTotal - primary
};

Config* current_config = nullptr;

Config* NewConfig(int primary) { return new Config{primary, kTotal - primary}; }

void Read() {
  rcu_register_thread();
  for (int i = 0; i < kLookups; ++i) {
    rcu_read_lock();
    const Config* config = rcu_dereference(current_config);
    assert(config->primary + config->secondary == kTotal && "read a freed configuration");
    rcu_read_unlock();
  }
  rcu_unregister_thread();
}

void Write() {
  for (int version = 1; version <= kVersions; ++version) {
    Config* old = rcu_xchg_pointer(&current_config, NewConfig(version));
    delete old;  // a reader may still hold `old`: this needs synchronize_rcu() first
  }
}

}  // namespace

int main() {
  rcu_assign_pointer(current_config, NewConfig(0));
  std::thread reader(Read);
  std::thread writer(Write);
  reader.join();
  writer.join();
  delete current_config;
  return 0;
}
