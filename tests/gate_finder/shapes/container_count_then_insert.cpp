// !count(k), then insert(k), no lock.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <set>
#include <thread>

std::set<int> seen_ids;

bool first_time(int id) {
  if (!seen_ids.count(id)) {
    seen_ids.insert(id);
    return true;
  }
  return false;
}

void run() { std::thread([] { first_time(1); }).join(); }

// CHECK: container_count_then_insert.cpp:9:7: warning: check-then-act window on seen_ids (check-then-act on a container)
// CHECK: act: {{.*}}:10:5 `seen_ids.insert(id)`; locks held: none
// CHECK: gate: container_count_then_insert.seen_ids
// CHECK: sim-gate-finder: 1 window
