// A thread that waits in a yield loop for a lower-priority thread must not
// starve it under pct: a yield drops the yielder below every priority, so a
// correct spin-wait passes every seed instead of hitting the step limit. So
// must one that polls without yielding: at the end of its time slice
// (kTimeSliceChoicePoints) it drops as a yielder does.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include "sim/sim.h"
#include "strategy_test_programs.h"

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

// Before the time slice, a waiter above the setter polled until 100,000
// choice points had passed and uniform choice took over: past this
// max_steps, a step limit.
TEST_P(PctYieldLoopTest, PollWithoutYieldPassesEverySeed) {
  auto report =
      sim::explore(sim_test_programs::PollUntilSet, {.seeds = 200, .strategy = GetParam(), .max_steps = 60000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

INSTANTIATE_TEST_SUITE_P(Strategies, PctYieldLoopTest,
                         ::testing::Values("pct:2", "pct:3", "pct:5", "portfolio:pos,pct:5"));

}  // namespace
