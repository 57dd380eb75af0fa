// std::async(std::launch::async) runs its task on a simulated thread and
// future::get waits for it.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "sim/sim.h"

TEST(FutexAsync, LaunchAsyncResultsArrive) {
  auto report = sim::explore(
      [] {
        int shared = 0;
        auto first = std::async(std::launch::async, [] {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          return 20;
        });
        auto second = std::async(std::launch::async, [&] {
          shared = 1;
          return 22;
        });
        if (first.get() + second.get() != 42) sim::fail("wrong sum");
        if (shared != 1) sim::fail("get() returned before the task ran");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
