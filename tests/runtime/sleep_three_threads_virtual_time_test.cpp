// Three threads that each sleep 10 virtual seconds finish at t=10 s in
// every one of 1,000 executions: sleeps overlap in virtual time and cost no
// wall time.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "sim/sim.h"

using namespace std::chrono_literals;

TEST(SleepThreeThreads, TenSecondSleepsOverlapInVirtualTime) {
  auto report = sim::explore(
      [] {
        const auto start = std::chrono::steady_clock::now();
        std::chrono::steady_clock::time_point woke[3];
        std::vector<std::thread> sleepers;
        for (int i = 0; i < 3; ++i) {
          sleepers.emplace_back([&, i] {
            std::this_thread::sleep_for(10s);
            woke[i] = std::chrono::steady_clock::now();
          });
        }
        for (auto& sleeper : sleepers) sleeper.join();
        for (const auto& time : woke) {
          if (time - start != 10s) sim::fail("a sleeper woke at a virtual time other than start + 10 s");
        }
        if (std::chrono::steady_clock::now() - start != 10s) sim::fail("the world's clock is not at 10 s");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SleepThreeThreads, TraceShowsTheVirtualTime) {
  // The report's events carry the virtual time: the failure happens at 10 s.
  auto report = sim::explore([] {
    std::thread sleeper([] { std::this_thread::sleep_for(10s); });
    sleeper.join();
    sim::fail("after the sleep");
  });
  ASSERT_TRUE(report.has_value());
  bool saw_ten_seconds = false;
  for (const std::string& event : report->last_events) saw_ten_seconds |= event.find("t=10.000000") != std::string::npos;
  EXPECT_TRUE(saw_ten_seconds) << report->render();
}
