// Shrinking: a failing schedule is reduced to the preemptions the bug needs:
// exactly one for a check-then-act across two critical sections, exactly
// two for an order violation that needs both threads interleaved twice.
// The shrunk schedule replays to the same report, and the story names the
// preemptions in source terms.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

int CountOf(const std::vector<std::string>& lines, const std::string& needle) {
  int count = 0;
  for (const std::string& line : lines) count += line.find(needle) != std::string::npos;
  return count;
}

void CheckThenActAcrossTwoCriticalSections() {
  std::mutex m;
  int balance = 100;
  auto withdraw = [&] {
    bool enough;
    {
      std::lock_guard g(m);
      enough = balance >= 80;
    }
    if (enough) {
      std::lock_guard g(m);
      balance -= 80;
    }
  };
  std::thread a(withdraw), b(withdraw);
  a.join();
  b.join();
  if (balance < 0) sim::fail("overdrawn: " + std::to_string(balance));
}

// Fails only for the order A1 B1 A2 B2: T1 must be preempted after A1 and
// T2 after B1.
void InterleavedTwice() {
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
  std::thread b([&] {
    step("B1");
    step("B2");
  });
  a.join();
  b.join();
  if (log == std::vector<std::string>{"A1", "B1", "A2", "B2"}) sim::fail("interleaved twice");
}

TEST(ShrinkPreemptions, OnePreemptionBugShrinksToExactlyOne) {
  for (const char* strategy : {"random", "pct:2", "pct:3"}) {
    auto report = sim::explore(CheckThenActAcrossTwoCriticalSections, {.seeds = 1000, .strategy = strategy});
    ASSERT_TRUE(report.has_value()) << strategy;
    EXPECT_EQ(report->preemptions, 1u) << strategy << "\n" << report->render();
    EXPECT_GE(report->preemptions_before_shrink, report->preemptions);
    EXPECT_EQ(CountOf(report->story, "<- preempted"), 1) << report->render();
    EXPECT_THAT(report->render(), HasSubstr("shrink_preemptions_test.cpp:"));
  }
}

TEST(ShrinkPreemptions, TwoPreemptionBugShrinksToExactlyTwo) {
  auto report = sim::explore(InterleavedTwice, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->preemptions, 2u) << report->render();
  EXPECT_EQ(CountOf(report->story, "<- preempted"), 2) << report->render();
  EXPECT_EQ(CountOf(report->story, " resumes"), 2) << report->render();
}

TEST(ShrinkPreemptions, ShrunkScheduleReplaysToTheSameReport) {
  auto report = sim::explore(InterleavedTwice, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  auto replayed = sim::explore(InterleavedTwice, {.seeds = 1, .strategy = "replay:" + report->schedule});
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(replayed->message, report->message);
  EXPECT_EQ(replayed->trace_hash, report->trace_hash);
  EXPECT_EQ(replayed->schedule, report->schedule);
  EXPECT_EQ(replayed->story, report->story);
  // And replaying the seed shrinks to the same schedule again.
  auto by_seed = sim::explore(InterleavedTwice, {.first_seed = report->seed, .seeds = 1});
  ASSERT_TRUE(by_seed.has_value());
  EXPECT_EQ(by_seed->schedule, report->schedule);
}

TEST(ShrinkPreemptions, ShrinkOffReportsTheScheduleAsFound) {
  auto shrunk = sim::explore(InterleavedTwice, {.seeds = 1000});
  auto as_found = sim::explore(InterleavedTwice, {.seeds = 1000, .shrink = 0});
  ASSERT_TRUE(shrunk.has_value());
  ASSERT_TRUE(as_found.has_value());
  EXPECT_EQ(as_found->seed, shrunk->seed);
  EXPECT_EQ(as_found->preemptions, as_found->preemptions_before_shrink);
  EXPECT_GE(as_found->preemptions, shrunk->preemptions);
  EXPECT_EQ(CountOf(as_found->story, "<- preempted"), std::min<int>(8, static_cast<int>(as_found->preemptions)));
}

TEST(ShrinkPreemptions, DeadlockShrinksToTheOnePreemptionThatCausesIt) {
  auto report = sim::explore(
      [] {
        std::mutex a, b;
        std::thread one([&] {
          std::lock_guard first(a);
          std::lock_guard second(b);
        });
        std::thread two([&] {
          std::lock_guard first(b);
          std::lock_guard second(a);
        });
        one.join();
        two.join();
      },
      {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock);
  EXPECT_EQ(report->preemptions, 1u) << report->render();
}

}  // namespace
