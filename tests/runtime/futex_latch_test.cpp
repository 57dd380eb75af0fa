// std::latch: the waiter is released only after every worker counted down
// (libstdc++ waits on the latch counter's futex).
#include <gtest/gtest.h>

#include <latch>
#include <thread>
#include <vector>

#include "sim/sim.h"

TEST(FutexLatch, WaitReturnsAfterEveryCountDown) {
  auto report = sim::explore(
      [] {
        constexpr int kWorkers = 3;
        std::latch done(kWorkers);
        int results[kWorkers] = {};
        std::vector<std::thread> workers;
        for (int i = 0; i < kWorkers; ++i) {
          workers.emplace_back([&, i] {
            results[i] = i + 1;
            done.count_down();
          });
        }
        done.wait();
        for (int i = 0; i < kWorkers; ++i) {
          if (results[i] != i + 1) sim::fail("latch released before worker " + std::to_string(i) + " finished");
        }
        for (auto& worker : workers) worker.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
