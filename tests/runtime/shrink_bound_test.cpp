// Shrinking is bounded by a count of candidate executions
// (shrink_candidates), so the same seed shrinks to the same report however
// fast the machine is; the wall-clock cap (shrink_budget_ms) is a safety
// net, and when it cuts the search the report says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A lost update across two critical sections, in a loop: random finds it
// with many preemptions, and greedy removal takes them out one candidate
// at a time, so a small bound stops it part way.
void LostUpdates() {
  std::mutex m;
  int count = 0;
  auto add = [&] {
    for (int i = 0; i < 5; ++i) {
      int seen;
      {
        std::lock_guard g(m);
        seen = count;
      }
      std::lock_guard g(m);
      count = seen + 1;
    }
  };
  std::thread a(add), b(add), c(add);
  a.join();
  b.join();
  c.join();
  if (count != 15) sim::fail("lost " + std::to_string(15 - count) + " updates");
}

sim::Options Bounded(std::uint64_t wall_clock_ms) {
  sim::Options options;
  options.seeds = 1000;
  options.strategy = "random";
  options.shrink_candidates = 10;
  options.shrink_budget_ms = wall_clock_ms;
  return options;
}

TEST(ShrinkBound, TheCandidateBoundDecidesWhateverTheWallClockCap) {
  auto first = sim::explore(LostUpdates, Bounded(600000));
  ASSERT_TRUE(first.has_value());
  ASSERT_GT(first->preemptions_before_shrink, 10u) << "found with too few preemptions for the bound to stop it";
  EXPECT_EQ(first->shrink_candidates, 10u);
  EXPECT_EQ(first->shrink_stopped,
            "shrinking stopped at its bound of 10 candidates (shrink_candidates); a higher bound may find fewer "
            "preemptions");
  EXPECT_THAT(first->render(), HasSubstr("\n  " + first->shrink_stopped + "\n  schedule: "));
  // The same seed, three times under each of two caps, and alone.
  for (std::uint64_t wall_clock_ms : {600000u, 30000u}) {
    for (int run = 0; run < 3; ++run) {
      sim::Options options = Bounded(wall_clock_ms);
      if (run == 2) {
        options.first_seed = first->seed;
        options.seeds = 1;
      }
      auto again = sim::explore(LostUpdates, options);
      ASSERT_TRUE(again.has_value());
      EXPECT_EQ(again->seed, first->seed);
      EXPECT_EQ(again->preemptions, first->preemptions);
      EXPECT_EQ(again->schedule, first->schedule);
      EXPECT_EQ(again->trace_hash, first->trace_hash);
      EXPECT_EQ(again->story, first->story);
      EXPECT_EQ(again->shrink_stopped, first->shrink_stopped);
    }
  }
}

TEST(ShrinkBound, TheWallClockCapSaysWhenItCutsTheSearch) {
  sim::Options options = Bounded(0);
  options.shrink_candidates = 0;  // the default bound: the cap cuts first
  auto report = sim::explore(LostUpdates, options);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->shrink_stopped,
            "shrinking stopped by the time cap (shrink_budget_ms=0) after 0 candidates; the result depends on "
            "machine speed");
  EXPECT_EQ(report->preemptions, report->preemptions_before_shrink);
  EXPECT_THAT(report->render(), HasSubstr("\n  " + report->shrink_stopped + "\n"));
}

TEST(ShrinkBound, ASearchThatFinishesSaysNothing) {
  auto report = sim::explore(LostUpdates, {.seeds = 1000, .strategy = "random"});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->preemptions, 1u) << report->render();
  EXPECT_GT(report->shrink_candidates, 0u);
  EXPECT_EQ(report->shrink_stopped, "");
  EXPECT_THAT(report->render(), Not(HasSubstr("shrinking stopped")));
}

}  // namespace
