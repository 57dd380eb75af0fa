// A race's flipped executions as a tree: a continuation that would repeat
// one already run is told which, and one that would not is run. Driven by
// a model program whose choice points depend only on the choices made, as
// a real program's do given its schedule.
#include "strategy/flip_continuations.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

#include "strategy/race_flip.h"

namespace sim::internal {
namespace {

constexpr int kLaterSite = 0;
constexpr int kShared = 0;

RaceToFlip RaceAtTheFirstPoint() {
  return {.earlier = 1,
          .later = 2,
          .choice_point = 1,
          .later_site = reinterpret_cast<std::uintptr_t>(&kLaterSite),
          .later_points = 0,
          .earlier_writes = true,
          .later_writes = true};
}

// Two threads, each with `steps` writes to one shared word; T2's first is
// the racing access, taken at the first choice point (the flip). A choice
// point is met while both have steps left; T3 is created at T1's second
// step. What an execution did is the threads chosen, in order.
std::vector<ThreadId> RunModel(Strategy& strategy, int steps) {
  std::map<ThreadId, int> left = {{1, steps}, {2, steps}};
  std::map<ThreadId, std::uint64_t> points = {{1, 0}, {2, 0}};
  std::vector<ThreadId> chosen;
  strategy.BeginExecution(0);
  strategy.OnThreadCreated(0);
  strategy.OnThreadCreated(1);
  strategy.OnThreadCreated(2);
  ThreadId current = 1;
  for (std::uint64_t number = 1; left[1] > 0 && left[2] > 0; ++number) {
    const std::vector<ThreadId> enabled = {1, 2};
    std::vector<PendingOperation> pending(2);
    for (std::size_t i = 0; i < 2; ++i) {
      pending[i] = {.object = &kShared, .writes = true, .thread_points = points[enabled[i]], .site = nullptr};
    }
    if (number == 1) pending[1].site = &kLaterSite;
    ChoicePoint at;
    at.current = current;
    at.current_points = points[current];
    at.current_enabled = true;
    at.pending = pending;
    at.number = number;
    const Choice choice = strategy.Choose(enabled, at);
    EXPECT_TRUE(choice.mismatch.empty()) << choice.mismatch;
    current = choice.thread;
    chosen.push_back(current);
    --left[current];
    ++points[current];
    if (current == 1 && points[1] == 2) strategy.OnThreadCreated(3);
  }
  EXPECT_EQ(strategy.EndExecution(chosen.size()), "");
  return chosen;
}

TEST(FlipContinuations, AContinuationIsToldWhichExecutionItRepeatsAndOnlyThen) {
  FlipContinuations run_so_far;
  std::vector<std::vector<ThreadId>> executions;
  int repeated = 0;
  for (std::uint64_t continuation = 0; continuation < 60; ++continuation) {
    std::optional<std::size_t> told;
    if (continuation != 0) {
      const std::unique_ptr<Strategy> drawing = MakeFlipContinuationStrategy(continuation);
      told = run_so_far.Repeated(*drawing);
    }
    ContinuationRecord record;
    const std::unique_ptr<Strategy> flip = MakeRaceFlipStrategy({}, RaceAtTheFirstPoint(), continuation, &record);
    const std::vector<ThreadId> ran = RunModel(*flip, /*steps=*/3);
    ASSERT_TRUE(record.flipped);
    if (told) {
      ++repeated;
      EXPECT_EQ(ran, executions[*told]) << "continuation " << continuation;
    } else {
      for (const std::vector<ThreadId>& earlier : executions) EXPECT_NE(ran, earlier) << "continuation " << continuation;
    }
    run_so_far.Add(record, executions.size());
    executions.push_back(ran);
  }
  // Three steps each: C(6,3) = 20 orders at most, so most of the 60 repeat.
  EXPECT_GE(repeated, 30);
  EXPECT_LE(executions.size() - static_cast<std::size_t>(repeated), 20u);
}

TEST(FlipContinuations, RecordsThatDisagreeWhereTheyShouldAgreeStopTheAnswers) {
  ContinuationRecord first;
  const std::unique_ptr<Strategy> flip = MakeRaceFlipStrategy({}, RaceAtTheFirstPoint(), 1, &first);
  RunModel(*flip, 2);
  FlipContinuations run_so_far;
  run_so_far.Add(first, 0);
  const std::unique_ptr<Strategy> same = MakeFlipContinuationStrategy(1);
  EXPECT_EQ(run_so_far.Repeated(*same), std::optional<std::size_t>(0));
  // The same first point with another pending operation: not the program
  // the first record came from.
  ContinuationRecord other = first;
  ASSERT_FALSE(other.points.empty());
  other.points[0].pending[0].thread_points += 5;
  run_so_far.Add(other, 1);
  const std::unique_ptr<Strategy> again = MakeFlipContinuationStrategy(1);
  EXPECT_EQ(run_so_far.Repeated(*again), std::nullopt);
}

TEST(FlipContinuations, AnExecutionNotFlippedIsNotKept) {
  FlipContinuations run_so_far;
  ContinuationRecord unflipped;
  unflipped.points.push_back({});
  run_so_far.Add(unflipped, 0);
  const std::unique_ptr<Strategy> drawing = MakeFlipContinuationStrategy(1);
  EXPECT_EQ(run_so_far.Repeated(*drawing), std::nullopt);
}

TEST(FlipContinuations, ARecordRoundTripsThroughItsText) {
  ContinuationRecord record;
  const std::unique_ptr<Strategy> flip = MakeRaceFlipStrategy({}, RaceAtTheFirstPoint(), 4, &record);
  RunModel(*flip, 3);
  ASSERT_GE(record.points.size(), 3u);
  std::istringstream text(EncodeContinuationRecord(record) + "\nafter");
  ContinuationRecord decoded;
  ASSERT_TRUE(DecodeContinuationRecord(text, decoded));
  ASSERT_EQ(decoded.points.size(), record.points.size());
  for (std::size_t i = 0; i < record.points.size(); ++i) {
    EXPECT_TRUE(decoded.points[i].SameAs(record.points[i])) << i;
    EXPECT_EQ(decoded.points[i].chosen, record.points[i].chosen) << i;
  }
  std::string rest;
  text >> rest;
  EXPECT_EQ(rest, "after");
  std::istringstream truncated("1 2 0");
  EXPECT_FALSE(DecodeContinuationRecord(truncated, decoded));
}

}  // namespace
}  // namespace sim::internal
