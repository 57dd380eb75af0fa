// registry_test.cpp: recipe 1 of docs/cookbook.md, the seam recipe.
//
// Two callers of ServiceRegistry::get_client() must share one client, built
// once. The same two SIM_TESTs run against the three versions of
// service_registry.h (the three-way check):
//   SecondCallerArrivesInsideTheWindow holds the gate "registry.build" open,
//     so both callers are provably inside the window: the mutants fail on
//     every seed, the double-checked version passes on every seed.
//   ConcurrentCallersShareOneClient is plain exploration: built with
//     sim-clang++, every shared access is a scheduling point and the seeds
//     search for the interleaving. Run with --sim_pin=registry.build (or
//     SIM_OPTIONS=pin=registry.build) it exercises the window on every seed.
//
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g registry_test.cpp -o registry_test
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -DMUTANT_NO_LOCK registry_test.cpp -o registry_no_lock
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -DMUTANT_NO_RECHECK registry_test.cpp -o registry_no_recheck
#include <memory>
#include <thread>

#include <sim/gtest.h>

#include "service_registry.h"

namespace {

std::unique_ptr<Client> make_client() { return std::make_unique<Client>(); }

// (a) Hold the window open: the second caller arrives while the first is
// provably between its check and its build.
SIM_TEST(Registry, SecondCallerArrivesInsideTheWindow) {
  ServiceRegistry registry(make_client);
  Client* seen[2] = {};
  sim::Gate build = sim::Gate::hold("registry.build");
  std::thread first([&] { seen[0] = registry.get_client(); });
  build.await_arrivals(1);  // first has passed the check and is parked in the window
  std::thread second([&] { seen[1] = registry.get_client(); });
  build.await_arrivals(2);  // second has passed the check too
  build.release();
  first.join();
  second.join();
  EXPECT_EQ(registry.build_count(), 1) << "the client was built more than once";
  EXPECT_TRUE(seen[0] == seen[1]) << "the two callers got different clients";
}

// (b) Plain exploration; (c) the same test with pin=registry.build.
SIM_TEST(Registry, ConcurrentCallersShareOneClient) {
  ServiceRegistry registry(make_client);
  Client* seen[2] = {};
  std::thread first([&] { seen[0] = registry.get_client(); });
  std::thread second([&] { seen[1] = registry.get_client(); });
  first.join();
  second.join();
  EXPECT_EQ(registry.build_count(), 1) << "the client was built more than once";
  EXPECT_TRUE(seen[0] == seen[1]) << "the two callers got different clients";
}

}  // namespace
