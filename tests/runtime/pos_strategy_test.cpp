// pos (partial order sampling) finds a bug that needs one preemption and one
// that needs two within a bounded number of seeds, passes a correct program
// on every seed, gives the same execution for the same seed, and its
// failures replay from the reported seed and from the reported schedule.
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"
#include "strategy_test_programs.h"

namespace {

using sim_test_programs::InterleavedTwiceAmongThree;
using sim_test_programs::LockedIncrementByThree;
using sim_test_programs::SplitLockedIncrement;

TEST(PosStrategy, FindsAOnePreemptionBug) {
  auto report = sim::explore(SplitLockedIncrement, {.seeds = 200, .strategy = "pos"});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->message, "lost update (in T0)");
  EXPECT_EQ(report->preemptions, 1u) << report->render();
}

TEST(PosStrategy, FindsATwoPreemptionBugAmongThreeThreads) {
  auto report = sim::explore(InterleavedTwiceAmongThree, {.seeds = 500, .strategy = "pos"});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->message, "B1 ran between A1 and A2 (in T0)");
}

TEST(PosStrategy, PassesACorrectProgramOnEverySeed) {
  auto report = sim::explore(LockedIncrementByThree, {.seeds = 2000, .strategy = "pos"});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(PosStrategy, SameSeedSameExecution) {
  for (std::uint64_t seed : {0, 17, 1234}) {
    const sim::Options options{.first_seed = seed, .seeds = 1, .strategy = "pos", .shrink = 0};
    auto always_fails = [] {
      InterleavedTwiceAmongThree();
      sim::fail("end");
    };
    auto first = sim::explore(always_fails, options);
    auto again = sim::explore(always_fails, options);
    ASSERT_TRUE(first.has_value());
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->trace_hash, first->trace_hash) << "seed " << seed;
    EXPECT_EQ(again->schedule, first->schedule) << "seed " << seed;
  }
}

TEST(PosStrategy, DifferentSeedsSampleEveryOrder) {
  std::set<std::string> orders;
  auto record_order = [&orders] {
    std::mutex m;
    std::string order;
    auto step = [&](char name) {
      std::lock_guard g(m);
      order += name;
    };
    std::thread a([&] { step('a'); }), b([&] { step('b'); }), c([&] { step('c'); });
    a.join();
    b.join();
    c.join();
    orders.insert(order);
  };
  EXPECT_FALSE(sim::explore(record_order, {.seeds = 200, .strategy = "pos"}).has_value());
  EXPECT_EQ(orders.size(), 6u) << "every order of three critical sections";
}

TEST(PosStrategy, FailureReplaysFromItsSeedAndItsSchedule) {
  auto report = sim::explore(InterleavedTwiceAmongThree, {.seeds = 500, .strategy = "pos"});
  ASSERT_TRUE(report.has_value());
  auto by_seed = sim::explore(InterleavedTwiceAmongThree, {.first_seed = report->seed, .seeds = 1, .strategy = "pos"});
  ASSERT_TRUE(by_seed.has_value());
  EXPECT_EQ(by_seed->message, report->message);
  EXPECT_EQ(by_seed->schedule, report->schedule);
  EXPECT_EQ(by_seed->trace_hash, report->trace_hash);
  auto by_schedule = sim::explore(InterleavedTwiceAmongThree, {.seeds = 1, .strategy = "replay:" + report->schedule});
  ASSERT_TRUE(by_schedule.has_value());
  EXPECT_EQ(by_schedule->message, report->message);
  EXPECT_EQ(by_schedule->trace_hash, report->trace_hash);
}

}  // namespace
