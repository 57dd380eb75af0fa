// correct.cpp's body as a SIM_TEST: two readers look a configuration up
// under rcu_read_lock while a writer publishes versions with rcu_xchg_pointer
// and retires each with call_rcu; no reader sees a torn or freed version, and
// after rcu_barrier every retired version has been reclaimed. liburcu starts
// its call_rcu thread once per process, so this needs every execution of the
// SIM_TEST to start from a fresh library (issue 15 item 4).
#include <urcu.h>

#include <atomic>
#include <thread>

#include "sim/gtest.h"

namespace {

constexpr int kTotal = 100;
constexpr int kVersions = 6;
constexpr int kLookupsPerReader = 8;

struct Config {
  int primary;
  int secondary;  // always kTotal - primary
  rcu_head reclaim;
};

Config* current_config = nullptr;
std::atomic<int> reclaimed{0};
std::atomic<bool> torn_read{false};

Config* NewConfig(int primary) { return new Config{primary, kTotal - primary, {}}; }

void Reclaim(rcu_head* head) {
  delete caa_container_of(head, Config, reclaim);
  reclaimed.fetch_add(1);
}

void Read() {
  rcu_register_thread();
  for (int i = 0; i < kLookupsPerReader; ++i) {
    rcu_read_lock();
    const Config* config = rcu_dereference(current_config);
    if (config->primary + config->secondary != kTotal) torn_read = true;
    rcu_read_unlock();
  }
  rcu_unregister_thread();
}

void Write() {
  rcu_register_thread();
  for (int version = 1; version <= kVersions; ++version) {
    Config* old = rcu_xchg_pointer(&current_config, NewConfig(version));
    call_rcu(&old->reclaim, Reclaim);
  }
  rcu_unregister_thread();
}

SIM_TEST(Urcu, ReadersNeverSeeAFreedConfiguration) {
  // The globals outlive an execution: each one starts from the same state.
  current_config = nullptr;
  reclaimed = 0;
  torn_read = false;
  rcu_register_thread();
  rcu_assign_pointer(current_config, NewConfig(0));
  std::thread first_reader(Read);
  std::thread second_reader(Read);
  std::thread writer(Write);
  first_reader.join();
  second_reader.join();
  writer.join();
  rcu_barrier();
  delete rcu_xchg_pointer(&current_config, nullptr);
  rcu_unregister_thread();
  EXPECT_FALSE(torn_read);
  EXPECT_EQ(reclaimed, kVersions);
}

}  // namespace
