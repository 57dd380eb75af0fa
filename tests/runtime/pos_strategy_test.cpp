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

namespace {

// One preemption: both read the counter in one critical section and write
// it back in another.
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

// Two preemptions among three threads: only A1 B1 A2 (with C anywhere) fails.
void InterleavedTwiceAmongThree() {
  std::mutex m;
  std::vector<std::string> log;
  auto step = [&](const char* name) {
    std::lock_guard g(m);
    log.push_back(name);
  };
  std::thread a([&] {
    step("A1");
    step("A2");
  });
  std::thread b([&] { step("B1"); });
  std::thread c([&] { step("C1"); });
  a.join();
  b.join();
  c.join();
  std::vector<std::string> without_c;
  for (const std::string& name : log) {
    if (name != "C1") without_c.push_back(name);
  }
  if (without_c == std::vector<std::string>{"A1", "B1", "A2"}) sim::fail("B1 ran between A1 and A2");
}

void LockedIncrementByThree() {
  std::mutex m;
  int counter = 0;
  auto increment = [&] {
    for (int i = 0; i < 3; ++i) {
      std::lock_guard g(m);
      ++counter;
    }
  };
  std::thread a(increment), b(increment), c(increment);
  a.join();
  b.join();
  c.join();
  if (counter != 9) sim::fail("lost update");
}

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
