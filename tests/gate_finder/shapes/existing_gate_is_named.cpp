// A window that has a SIM_GATE already: the proposal uses its name and
// inserts nothing.
// RUN: %gate-finder %s -- -std=c++20 -I%S/../../../include | %FileCheck %s
#include <sim/sim.h>

#include <thread>

struct Client {};

class Registry {
 public:
  Client* get() {
    if (client_ == nullptr) {
      SIM_GATE("registry.build");
      client_ = new Client;
    }
    return client_;
  }

 private:
  Client* client_ = nullptr;
};

void use() { std::thread([] {}).join(); }

// CHECK: warning: check-then-act window on Registry::client_
// CHECK: gate: registry.build
// CHECK-NEXT: gated already: SIM_GATE("registry.build");
// CHECK: sim::Gate::hold("registry.build")
// CHECK: sim-gate-finder: 1 window
