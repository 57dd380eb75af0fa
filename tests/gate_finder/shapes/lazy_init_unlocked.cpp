// A plain pointer tested and built with no lock: the classic lazy-init window.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <thread>

struct Client {};

class Registry {
 public:
  Client* get() {
    if (client_ == nullptr) {
      client_ = new Client;
    }
    return client_;
  }

 private:
  Client* client_ = nullptr;
};

void use() { std::thread([] {}).join(); }

// CHECK: lazy_init_unlocked.cpp:10:9: warning: check-then-act window on Registry::client_ (lazy initialisation) [sim-gate-finder:lazy-init]
// CHECK-NEXT: check: {{.*}}lazy_init_unlocked.cpp:10:9 `client_ == nullptr`; locks held: none
// CHECK-NEXT: act: {{.*}}lazy_init_unlocked.cpp:11:7 `client_ = new Client`; locks held: none
// CHECK-NEXT: why: no lock is held at the check or at the act
// CHECK: gate: registry.client
// CHECK-NEXT: insert at {{.*}}lazy_init_unlocked.cpp:11:7: SIM_GATE("registry.client");
// CHECK: SIM_TEST(GateFinder, RegistryClient) {
// CHECK-NEXT: Registry object;
// CHECK-NEXT: sim::Gate gate = sim::Gate::hold("registry.client");
// CHECK-NEXT: std::thread first([&] { object.get(); });
// CHECK-NEXT: gate.await_arrivals(1);
// CHECK-NEXT: std::thread second([&] { object.get(); });
// CHECK: gate.release();
// CHECK: sim-gate-finder: 1 window
