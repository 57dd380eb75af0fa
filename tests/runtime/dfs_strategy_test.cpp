// dfs:P enumerates every schedule with at most P preemptions: it finds a
// bug of depth 1 with dfs:1 (and not with dfs:0), stops when the space is
// exhausted, and says so when no schedule fails.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "sim/sim.h"
#include "strategy_test_programs.h"

namespace {

using ::testing::HasSubstr;

void SplitLockedIncrement() {
  std::mutex m;
  int counter = 0;
  auto increment = [&] {
    int seen;
    {
      std::lock_guard g(m);
      seen = counter;
    }
    std::lock_guard g(m);
    counter = seen + 1;
  };
  std::thread a(increment), b(increment);
  a.join();
  b.join();
  if (counter != 2) sim::fail("lost update");
}

void LockedIncrement() {
  std::mutex m;
  int counter = 0;
  auto increment = [&] {
    std::lock_guard g(m);
    ++counter;
  };
  std::thread a(increment), b(increment);
  a.join();
  b.join();
  if (counter != 2) sim::fail("lost update");
}

// A waiter that yields in a loop until another thread sets a flag: the
// default at a yield is to switch (free, as in CHESS), so the setter runs
// within any bound. When going on was the default, bound 0 never let it run
// and every search ended in a step limit.
void YieldUntilSet() {
  std::atomic<bool> set{false};
  std::thread waiter([&] {
    while (!set.load()) std::this_thread::yield();
  });
  std::thread setter([&] { set.store(true); });
  waiter.join();
  setter.join();
}

TEST(DfsStrategy, AThreadYieldingInALoopLetsTheOneItWaitsForRun) {
  for (const char* strategy : {"dfs:0", "dfs:1"}) {
    ::testing::internal::CaptureStderr();
    auto report = sim::explore(YieldUntilSet, {.seeds = 100000, .strategy = strategy, .max_steps = 100000});
    const std::string said = ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(report.has_value()) << strategy << ": " << report->render();
    EXPECT_THAT(said, HasSubstr("no failure in any schedule with <= ")) << strategy;
  }
}

// A waiter that polls a flag under a mutex, never yielding
// (sim_test_programs::PollUntilSet): after a time slice of choice points
// the default switches to the next thread, so the setter runs within any
// bound. Before, bound 0 let the waiter poll until the livelock check ended
// the execution.
TEST(DfsStrategy, AThreadPollingWithoutYieldingLetsTheOneItWaitsForRun) {
  ::testing::internal::CaptureStderr();
  auto report = sim::explore(sim_test_programs::PollUntilSet, {.seeds = 100000, .strategy = "dfs:0"});
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_THAT(said, HasSubstr("dfs:0: no failure in any schedule with <= 0 preemptions"));
}

TEST(DfsStrategy, BoundOneFindsADepthOneBug) {
  auto report = sim::explore(SplitLockedIncrement, {.seeds = 100000, .strategy = "dfs:1"});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->message, "lost update (in T0)");
  EXPECT_EQ(report->preemptions, 1u);
}

TEST(DfsStrategy, BoundZeroCannotFindItAndSaysTheSpaceIsExhausted) {
  ::testing::internal::CaptureStderr();
  auto report = sim::explore(SplitLockedIncrement, {.seeds = 100000, .strategy = "dfs:0"});
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_THAT(said, HasSubstr("dfs:0: no failure in any schedule with <= 0 preemptions:"));
}

TEST(DfsStrategy, CorrectProgramPassesEveryScheduleWithTwoPreemptions) {
  ::testing::internal::CaptureStderr();
  int executions = 0;
  auto report = sim::explore(
      [&] {
        ++executions;
        LockedIncrement();
      },
      {.seeds = 100000, .strategy = "dfs:2"});
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(report.has_value());
  EXPECT_THAT(said, HasSubstr("no failure in any schedule with <= 2 preemptions: " + std::to_string(executions) +
                              " schedules"));
  EXPECT_GT(executions, 10);
  EXPECT_LT(executions, 100000);
}

TEST(DfsStrategy, StoppingEarlySaysTheSearchIsUnfinished) {
  ::testing::internal::CaptureStderr();
  auto report = sim::explore(LockedIncrement, {.seeds = 3, .strategy = "dfs:2"});
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(report.has_value());
  EXPECT_THAT(said, HasSubstr("stopped after 3 schedules without a failure, before trying them all"));
}

}  // namespace
