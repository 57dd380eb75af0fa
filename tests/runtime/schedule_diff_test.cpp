// diff: when a seed passed before the failing one, the report says where the
// failing execution first departs from that passing seed, naming what each
// run did there; diff=0 leaves it out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "sim/sim.h"

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

// The first seed range in which some seed passes before one fails.
sim::Options RangeWithAPassingSeedFirst() {
  for (std::uint64_t first = 0; first < 200; ++first) {
    auto report = sim::explore(SplitLockedIncrement, {.first_seed = first, .seeds = 50, .shrink = 0, .diff = 0});
    if (report && report->seeds_passed > 0) return {.first_seed = first, .seeds = 50};
  }
  ADD_FAILURE() << "no seed range starts with a passing seed";
  return {};
}

TEST(ScheduleDiff, NamesWhereTheFailureDepartsFromThePassingSeed) {
  const sim::Options options = RangeWithAPassingSeedFirst();
  auto report = sim::explore(SplitLockedIncrement, options);
  ASSERT_TRUE(report.has_value());
  ASSERT_GT(report->seeds_passed, 0u);
  EXPECT_THAT(report->diff, HasSubstr("departs from passing seed " + std::to_string(options.first_seed) + " at event "));
  EXPECT_THAT(report->diff, HasSubstr("the passing run ran T"));
  EXPECT_THAT(report->diff, HasSubstr("the failing run ran T"));
  EXPECT_THAT(report->diff, HasSubstr("schedule_diff_test.cpp:"));
  EXPECT_THAT(report->render(), HasSubstr("\n  diff: departs from passing seed"));
}

TEST(ScheduleDiff, OffWithDiffZeroAndAbsentWhenTheFirstSeedFails) {
  sim::Options options = RangeWithAPassingSeedFirst();
  options.diff = 0;
  auto report = sim::explore(SplitLockedIncrement, options);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->diff, "");

  auto at_first_seed = sim::explore(SplitLockedIncrement, {.first_seed = report->seed, .seeds = 1});
  ASSERT_TRUE(at_first_seed.has_value());
  EXPECT_EQ(at_first_seed->diff, "");
}

}  // namespace
