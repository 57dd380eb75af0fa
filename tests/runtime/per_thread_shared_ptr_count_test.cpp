// A std::shared_ptr copied across threads keeps a correct use count, and the
// object is destroyed exactly once, after the last copy.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {
int destroyed = 0;
struct Tracked {
  ~Tracked() { ++destroyed; }
};

TEST(PerThreadSharedPtrCount, CountStaysCorrect) {
  auto report = sim::explore(
      [] {
        destroyed = 0;
        auto shared = std::make_shared<Tracked>();
        std::vector<std::thread> threads;
        for (int i = 0; i < 3; ++i) {
          threads.emplace_back([copy = shared]() mutable {
            for (int round = 0; round < 3; ++round) {
              auto another = copy;
              std::this_thread::yield();
            }
          });
        }
        for (auto& thread : threads) thread.join();
        if (shared.use_count() != 1) sim::fail("use_count is " + std::to_string(shared.use_count()));
        std::weak_ptr<Tracked> weak = shared;
        shared.reset();
        if (!weak.expired() || destroyed != 1) sim::fail("destroyed " + std::to_string(destroyed) + " times");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
}  // namespace
