// pct learns how many choice points an execution has from earlier seeds, so
// a seed run alone repeats its execution only with that estimate: a failure
// found after the estimate moved prints pct:D:K in its replay command (for
// pct alone and for a pct member of a portfolio), and that command
// reproduces the failure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

// b lands between a and A only if B runs its 30 private critical sections
// while A is preempted once. Both go on with 40 more, so every execution has
// well over 64 choice points and pct's estimate moves after the first seed.
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
    noise(40);
  });
  std::thread b([&] {
    noise(30);
    step('b');
    noise(40);
  });
  a.join();
  b.join();
  if (log == "abA") sim::fail("b between a and A");
}

// The options of "SIM_OPTIONS=<options> <command line>".
std::string OptionsOf(const std::string& replay) {
  const std::string prefix = "SIM_OPTIONS=";
  if (replay.rfind(prefix, 0) != 0) return "";
  return replay.substr(prefix.size(), replay.find(' ') - prefix.size());
}

std::optional<sim::Report> RunWithSimOptions(const std::string& options) {
  setenv("SIM_OPTIONS", options.c_str(), 1);
  auto report = sim::explore(LateWriterBetween);
  unsetenv("SIM_OPTIONS");
  return report;
}

TEST(ReplayCommandPctEstimate, PctPrintsTheEstimateItRanWithAndTheCommandReproduces) {
  auto report = sim::explore(LateWriterBetween, {.seeds = 2000, .strategy = "pct:3"});
  ASSERT_TRUE(report.has_value());
  ASSERT_GT(report->seed, 0u) << "found by the first seed, before the estimate moved";
  const std::string options = OptionsOf(report->replay);
  EXPECT_THAT(options, MatchesRegex(".*:strategy=pct:3:[0-9]+$"));
  auto replayed = RunWithSimOptions(options);
  ASSERT_TRUE(replayed.has_value()) << options;
  EXPECT_EQ(replayed->seed, report->seed);
  EXPECT_EQ(replayed->trace_hash, report->trace_hash);
  EXPECT_EQ(replayed->replay, report->replay) << "a replay prints the same command";
}

TEST(ReplayCommandPctEstimate, PortfolioPrintsItsPctMembersEstimateAndTheCommandReproduces) {
  auto report = sim::explore(LateWriterBetween, {.seeds = 2000, .strategy = "portfolio:pct:3,pct:2"});
  ASSERT_TRUE(report.has_value());
  ASSERT_GT(report->seed, 1u) << "found before the member's estimate moved";
  const std::string options = OptionsOf(report->replay);
  EXPECT_THAT(options, MatchesRegex(report->seed % 2 == 0 ? ".*:strategy=portfolio:pct:3:[0-9]+,pct:2$"
                                                          : ".*:strategy=portfolio:pct:3,pct:2:[0-9]+$"));
  auto replayed = RunWithSimOptions(options);
  ASSERT_TRUE(replayed.has_value()) << options;
  EXPECT_EQ(replayed->seed, report->seed);
  EXPECT_EQ(replayed->trace_hash, report->trace_hash);
}

TEST(ReplayCommandPctEstimate, AStrategyThatLearnedNothingPrintsItsSpecAsGiven) {
  auto report = sim::explore(LateWriterBetween, {.seeds = 2000, .strategy = "portfolio:random,pos"});
  ASSERT_TRUE(report.has_value());
  EXPECT_THAT(OptionsOf(report->replay), MatchesRegex(".*:strategy=portfolio:random,pos$"));
}

TEST(ReplayCommandPctEstimate, TheEstimateMustBeAWholeNumberAboveZero) {
  auto error_for = [](const std::string& strategy) -> std::string {
    try {
      sim::explore([] {}, {.seeds = 1, .strategy = strategy});
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "(no error)";
  };
  EXPECT_THAT(error_for("pct:3:0"), HasSubstr("the estimate of choice points K in pct:D:K must be a whole number >= 1"));
  EXPECT_THAT(error_for("pct:3:x"), HasSubstr("as in pct:3:200"));
  EXPECT_THAT(error_for("pct:x:200"), HasSubstr("the depth must be a whole number >= 1"));
  EXPECT_EQ(error_for("pct:3:200"), "(no error)");
  EXPECT_EQ(error_for("portfolio:pct:3:200,pos"), "(no error)");
}

}  // namespace
