// A thread that spins on the clock sees time pass: each read after the
// first since it last waited moves the clock on (1 us, doubling per read, at
// most 1 ms a read), so busy-waits for a deadline end, deterministically,
// while reads around a wait still differ by exactly the time waited.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "sim/sim.h"

using namespace std::chrono_literals;

namespace {

std::int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

TEST(ClockBusyWait, SpinningUntilADeadlineEndsAlone) {
  int reads = 0;
  auto report = sim::explore(
      [&] {
        reads = 0;
        const auto deadline = std::chrono::steady_clock::now() + 1s;
        while (std::chrono::steady_clock::now() < deadline) ++reads;
      },
      {.seeds = 3});
  EXPECT_FALSE(report.has_value()) << report->render();
  // 1 us doubling to 1 ms a read: ten reads reach 1 ms, a thousand more 1 s.
  EXPECT_GT(reads, 900);
  EXPECT_LT(reads, 1100);
}

TEST(ClockBusyWait, SpinningUntilASleeperWakesEnds) {
  auto report = sim::explore(
      [] {
        bool slept = false;
        std::thread sleeper([&] {
          std::this_thread::sleep_for(20ms);
          slept = true;
        });
        const auto deadline = std::chrono::steady_clock::now() + 50ms;
        while (std::chrono::steady_clock::now() < deadline) {
        }
        sleeper.join();
        if (!slept) sim::fail("the sleeper never woke");
      },
      {.seeds = 200});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ClockBusyWait, ReadsAroundASleepDifferByTheSleep) {
  auto report = sim::explore(
      [] {
        const std::int64_t before = NowNs();
        std::this_thread::sleep_for(1s);
        const std::int64_t after = NowNs();
        if (after - before != 1000000000) sim::fail("reads around a 1 s sleep differ by " + std::to_string(after - before));
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ClockBusyWait, RepeatedReadsAdvanceByDoublingSteps) {
  std::vector<std::int64_t> steps;
  auto report = sim::explore(
      [&] {
        steps.clear();
        std::int64_t last = NowNs();
        for (int i = 0; i < 14; ++i) {
          const std::int64_t now = NowNs();
          steps.push_back(now - last);
          last = now;
        }
      },
      {.seeds = 1});
  EXPECT_FALSE(report.has_value()) << report->render();
  const std::vector<std::int64_t> expected = {1000,   2000,   4000,    8000,    16000,   32000,   64000,
                                              128000, 256000, 512000,  1000000, 1000000, 1000000, 1000000};
  EXPECT_EQ(steps, expected);
}

}  // namespace
