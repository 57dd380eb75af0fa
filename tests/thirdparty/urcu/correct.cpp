// liburcu (default flavour, urcu-memb) guarding a configuration that readers
// use on every request: two readers look it up under rcu_read_lock while a
// writer publishes new versions with rcu_xchg_pointer and hands each old one
// to call_rcu, which frees it on liburcu's call_rcu thread after a grace
// period. A reader never sees a torn or freed version (its two halves always
// add up to the total), and rcu_barrier at the end has run every callback:
// as many versions are reclaimed as were retired.
#include <urcu.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

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

}  // namespace

int main() {
  rcu_register_thread();
  rcu_assign_pointer(current_config, NewConfig(0));
  std::thread first_reader(Read);
  std::thread second_reader(Read);
  std::thread writer(Write);
  first_reader.join();
  second_reader.join();
  writer.join();
  // Every callback queued so far has run once rcu_barrier returns.
  rcu_barrier();
  delete rcu_xchg_pointer(&current_config, nullptr);
  rcu_unregister_thread();
  if (torn_read) {
    std::fprintf(stderr, "a reader saw a torn or freed configuration\n");
    return 1;
  }
  if (reclaimed != kVersions) {
    std::fprintf(stderr, "reclaimed %d of %d retired configurations\n", reclaimed.load(), kVersions);
    return 1;
  }
  return 0;
}
