// portfolio runs seed s with member s % n, seeded by s: it finds a bug that
// needs one preemption and one that needs two, passes a correct program,
// gives the same execution for the same seed, runs each seed exactly as its
// member would alone, and a failure replays from the reported seed, the
// reported schedule and the printed replay command.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"
#include "strategy_test_programs.h"

namespace {

using ::testing::HasSubstr;

using sim_test_programs::InterleavedTwiceAmongThree;
using sim_test_programs::LockedIncrementByThree;
using sim_test_programs::SplitLockedIncrement;

// b lands between a and A only if B runs its 30 private critical sections
// while A is preempted once: executions of well over 64 choice points, which
// random walk almost never gets right and pos does.
void LateWriterBetween() {
  std::mutex m;
  std::string log;
  auto step = [&](char name) {
    std::lock_guard g(m);
    log += name;
  };
  auto noise = [](int n) {
    std::mutex own;
    for (int i = 0; i < n; ++i) std::lock_guard g(own);
  };
  std::thread a([&] {
    step('a');
    noise(5);
    step('A');
  });
  std::thread b([&] {
    noise(30);
    step('b');
  });
  a.join();
  b.join();
  if (log == "abA") sim::fail("b between a and A");
}

void InterleavedThenFail() {
  InterleavedTwiceAmongThree();
  sim::fail("end");
}

TEST(PortfolioStrategy, FindsAOnePreemptionBug) {
  auto report = sim::explore(SplitLockedIncrement, {.seeds = 200, .strategy = "portfolio"});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->message, "lost update (in T0)");
}

TEST(PortfolioStrategy, FindsATwoPreemptionBugAmongThreeThreads) {
  auto report = sim::explore(InterleavedTwiceAmongThree, {.seeds = 500, .strategy = "portfolio"});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->message, "B1 ran between A1 and A2 (in T0)");
}

TEST(PortfolioStrategy, PassesACorrectProgramOnEverySeed) {
  auto report = sim::explore(LockedIncrementByThree, {.seeds = 2000, .strategy = "portfolio"});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(PortfolioStrategy, SameSeedSameExecution) {
  for (std::uint64_t seed : {0, 1, 2, 3}) {
    const sim::Options options{.first_seed = seed, .seeds = 1, .strategy = "portfolio", .shrink = 0};
    auto first = sim::explore(InterleavedThenFail, options);
    auto again = sim::explore(InterleavedThenFail, options);
    ASSERT_TRUE(first.has_value());
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->trace_hash, first->trace_hash) << "seed " << seed;
    EXPECT_EQ(again->schedule, first->schedule) << "seed " << seed;
  }
}

TEST(PortfolioStrategy, SeedSRunsMemberSModNSeededByS) {
  const std::vector<std::string> members = {"pct:1", "random", "pos"};
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    auto in_portfolio = sim::explore(
        InterleavedThenFail, {.first_seed = seed, .seeds = 1, .strategy = "portfolio:pct:1,random,pos", .shrink = 0});
    auto alone = sim::explore(InterleavedThenFail,
                              {.first_seed = seed, .seeds = 1, .strategy = members[seed % 3], .shrink = 0});
    ASSERT_TRUE(in_portfolio.has_value());
    ASSERT_TRUE(alone.has_value());
    EXPECT_EQ(in_portfolio->schedule, alone->schedule) << "seed " << seed;
    EXPECT_EQ(in_portfolio->trace_hash, alone->trace_hash) << "seed " << seed;
  }
}

TEST(PortfolioStrategy, FailureReplaysFromItsSeedAndItsSchedule) {
  auto report = sim::explore(InterleavedTwiceAmongThree, {.seeds = 500, .strategy = "portfolio"});
  ASSERT_TRUE(report.has_value());
  auto by_seed =
      sim::explore(InterleavedTwiceAmongThree, {.first_seed = report->seed, .seeds = 1, .strategy = "portfolio"});
  ASSERT_TRUE(by_seed.has_value());
  EXPECT_EQ(by_seed->message, report->message);
  EXPECT_EQ(by_seed->schedule, report->schedule);
  EXPECT_EQ(by_seed->trace_hash, report->trace_hash);
  auto by_schedule = sim::explore(InterleavedTwiceAmongThree, {.seeds = 1, .strategy = "replay:" + report->schedule});
  ASSERT_TRUE(by_schedule.has_value());
  EXPECT_EQ(by_schedule->message, report->message);
  EXPECT_EQ(by_schedule->trace_hash, report->trace_hash);
}

TEST(PortfolioStrategy, FailureInALongExecutionReplaysFromItsSeed) {
  auto report = sim::explore(LateWriterBetween, {.seeds = 2000, .strategy = "portfolio:random,pos", .shrink = 0});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->seed % 2, 1u) << "found by pos, the member of odd seeds";
  auto by_seed = sim::explore(LateWriterBetween,
                              {.first_seed = report->seed, .seeds = 1, .strategy = "portfolio:random,pos", .shrink = 0});
  ASSERT_TRUE(by_seed.has_value());
  EXPECT_EQ(by_seed->schedule, report->schedule);
  EXPECT_EQ(by_seed->trace_hash, report->trace_hash);
}

TEST(PortfolioStrategy, PrintedReplayCommandReproducesTheFailure) {
  const std::string spec = "portfolio:pct:1,random,pct:2";
  auto report = sim::explore(InterleavedTwiceAmongThree, {.first_seed = 1000, .seeds = 500, .strategy = spec});
  ASSERT_TRUE(report.has_value());
  EXPECT_THAT(report->replay, HasSubstr("strategy=" + spec));
  // "SIM_OPTIONS=<options> <command line>": replay the options in this process.
  const std::string prefix = "SIM_OPTIONS=";
  ASSERT_EQ(report->replay.rfind(prefix, 0), 0u) << report->replay;
  const std::string options =
      report->replay.substr(prefix.size(), report->replay.find(' ') - prefix.size());
  ASSERT_EQ(options.find('\''), std::string::npos) << "needs no shell quoting: " << options;
  setenv("SIM_OPTIONS", options.c_str(), 1);
  auto replayed = sim::explore(InterleavedTwiceAmongThree);
  unsetenv("SIM_OPTIONS");
  ASSERT_TRUE(replayed.has_value()) << options;
  EXPECT_EQ(replayed->seed, report->seed);
  EXPECT_EQ(replayed->message, report->message);
  EXPECT_EQ(replayed->trace_hash, report->trace_hash);
}

}  // namespace
