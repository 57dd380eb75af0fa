// Determinism is a feature: the same seed gives the same trace hash and
// schedule every time, a printed schedule replays to the same verdict and
// hash, and different seeds explore different interleavings.
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>

#include "sim/sim.h"

namespace {

// Always fails at the end, so every execution yields a report to compare.
void ThreeWorkersThenFail() {
  std::mutex m;
  int sum = 0;
  auto work = [&](int amount) {
    for (int i = 0; i < 3; ++i) {
      std::lock_guard guard(m);
      sum += amount;
    }
  };
  std::thread a(work, 1), b(work, 10), c(work, 100);
  a.join();
  b.join();
  c.join();
  sim::fail("done with sum " + std::to_string(sum));
}

TEST(Determinism, SameSeedSameTraceHashHundredTimes) {
  auto first = sim::explore(ThreeWorkersThenFail, {.first_seed = 42, .seeds = 1});
  ASSERT_TRUE(first.has_value());
  for (int run = 0; run < 100; ++run) {
    auto again = sim::explore(ThreeWorkersThenFail, {.first_seed = 42, .seeds = 1});
    ASSERT_TRUE(again.has_value());
    ASSERT_EQ(again->trace_hash, first->trace_hash) << "run " << run;
    ASSERT_EQ(again->schedule, first->schedule) << "run " << run;
  }
}

TEST(Determinism, DifferentSeedsExploreDifferentInterleavings) {
  // Unshrunk: shrinking takes every one of these (the program always fails)
  // to the same preemption-free run.
  std::set<std::uint64_t> hashes;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    hashes.insert(sim::explore(ThreeWorkersThenFail, {.first_seed = seed, .seeds = 1, .shrink = 0})->trace_hash);
  }
  EXPECT_GT(hashes.size(), 10u);
}

TEST(Determinism, ReplayingTheScheduleGivesTheSameVerdictAndHash) {
  for (const char* strategy : {"random", "pct:2", "pct:3"}) {
    auto original = sim::explore(ThreeWorkersThenFail, {.first_seed = 7, .seeds = 1, .strategy = strategy});
    ASSERT_TRUE(original.has_value());
    auto replayed = sim::explore(ThreeWorkersThenFail, {.seeds = 1, .strategy = "replay:" + original->schedule});
    ASSERT_TRUE(replayed.has_value()) << strategy;
    EXPECT_EQ(replayed->verdict, original->verdict) << strategy;
    EXPECT_EQ(replayed->message, original->message) << strategy;
    EXPECT_EQ(replayed->trace_hash, original->trace_hash) << strategy;
    EXPECT_EQ(replayed->schedule, original->schedule) << strategy;
  }
}

TEST(Determinism, AScheduleThatDoesNotFitIsAnErrorNotADifferentRun) {
  auto original = sim::explore(ThreeWorkersThenFail, {.first_seed = 3, .seeds = 1});
  ASSERT_TRUE(original.has_value());
  auto two_workers = [] {
    std::mutex m;
    std::thread a([&] { std::lock_guard g(m); });
    a.join();
  };
  try {
    sim::explore(two_workers, {.seeds = 1, .strategy = "replay:" + original->schedule});
    FAIL() << "replaying another program's schedule must throw";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("does not fit this program"), std::string::npos) << error.what();
  }
}

TEST(Determinism, ExploreWorksNormallyAfterAFailure) {
  ASSERT_TRUE(sim::explore(ThreeWorkersThenFail, {.seeds = 5}).has_value());
  auto passing = sim::explore(
      [] {
        std::mutex m;
        std::thread a([&] { std::lock_guard g(m); });
        std::thread b([&] { std::lock_guard g(m); });
        a.join();
        b.join();
      },
      {.seeds = 200});
  EXPECT_FALSE(passing.has_value()) << passing->render();
}

}  // namespace
