// A thread that waits in a yield loop for a lower-priority thread must not
// starve it under pct: a yield drops the yielder below every priority, so a
// correct spin-wait passes every seed instead of hitting the step limit.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

void WaitForTheOtherThread() {
  std::atomic<bool> ready{false};
  std::atomic<int> value{0};
  std::thread waiter([&] {
    while (!ready.load()) std::this_thread::yield();
    if (value.load() != 42) sim::fail("read before the write");
  });
  std::thread setter([&] {
    value.store(42);
    ready.store(true);
  });
  waiter.join();
  setter.join();
}

class PctYieldLoopTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PctYieldLoopTest, SpinWaitPassesEverySeed) {
  auto report = sim::explore(WaitForTheOtherThread, {.seeds = 500, .strategy = GetParam(), .max_steps = 20000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

INSTANTIATE_TEST_SUITE_P(Strategies, PctYieldLoopTest,
                         ::testing::Values("pct:2", "pct:3", "pct:5", "portfolio:pos,pct:5"));

}  // namespace
