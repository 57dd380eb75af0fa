// The pieces of "does this race matter?" on their own: the flip strategy
// at hand-made choice points, what TellWhetherRaceMatters says for each
// way its runs can end, and the texts that carry a race and the answer
// between processes. tools.sim_run_race_flip runs them on programs.
#include "strategy/race_flip.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "explore/race_matters.h"

namespace sim::internal {
namespace {

constexpr int kLaterSite = 0;
const void* const later_site = &kLaterSite;

RaceToFlip Race() {
  return {.earlier = 1,
          .later = 2,
          .choice_point = 3,
          .later_site = reinterpret_cast<std::uintptr_t>(later_site),
          .later_points = 7,
          .earlier_writes = true,
          .later_writes = false};
}

ChoicePoint At(std::uint64_t number, ThreadId current, std::span<const PendingOperation> pending) {
  ChoicePoint at;
  at.current = current;
  at.current_points = number;
  at.current_enabled = true;
  at.pending = pending;
  at.number = number;
  return at;
}

TEST(RaceFlipStrategy, ReplaysUpToTheFlipThenRunsTheLaterThreadToItsAccess) {
  // Decisions as found: T1 goes on at its points 1 to 3 (it takes its
  // access after choice point 3).
  std::vector<AnchoredDecision> decisions = {{1, 1, 1, false, false}, {1, 2, 1, false, false}, {1, 3, 1, false, false}};
  std::unique_ptr<Strategy> flip = MakeRaceFlipStrategy(decisions, Race(), /*continuation=*/0);
  flip->BeginExecution(0);
  ASSERT_TRUE(flip->WantsPendingOperations());
  const std::vector<ThreadId> enabled = {1, 2};
  std::vector<PendingOperation> elsewhere(2);
  EXPECT_EQ(flip->Choose(enabled, At(1, 1, elsewhere)).thread, 1u);
  EXPECT_EQ(flip->Choose(enabled, At(2, 1, elsewhere)).thread, 1u);
  // The flip point: T2 runs, and again while its announced access is not
  // the racing one.
  EXPECT_EQ(flip->Choose(enabled, At(3, 1, elsewhere)).thread, 2u);
  EXPECT_EQ(flip->Choose(enabled, At(4, 2, elsewhere)).thread, 2u);
  std::vector<PendingOperation> racing(2);
  racing[1].site = later_site;
  EXPECT_EQ(flip->Choose(enabled, At(5, 2, racing)).thread, 2u);
  // Flipped: the decisions go on (none here, so the running thread does).
  EXPECT_EQ(flip->Choose(enabled, At(6, 2, elsewhere)).thread, 2u);
  EXPECT_EQ(flip->EndExecution(6), "");
}

TEST(RaceFlipStrategy, SaysItCannotFlipWhenTheLaterThreadCannotRunThere) {
  std::unique_ptr<Strategy> flip = MakeRaceFlipStrategy({}, Race(), 0);
  flip->BeginExecution(0);
  const std::vector<ThreadId> without_later = {0, 1};
  std::vector<PendingOperation> pending(2);
  const Choice choice = flip->Choose(without_later, At(3, 1, pending));
  EXPECT_EQ(std::string(choice.mismatch),
            "cannot flip: T2 does not reach its access before T1's: it cannot run there (it is blocked or has not "
            "started)");
}

TEST(RaceFlipStrategy, SaysItCannotFlipWhenTheLaterThreadYields) {
  std::unique_ptr<Strategy> flip = MakeRaceFlipStrategy({}, Race(), 0);
  flip->BeginExecution(0);
  const std::vector<ThreadId> enabled = {1, 2};
  std::vector<PendingOperation> pending(2);
  ChoicePoint yielding = At(4, 2, pending);
  yielding.current_yielding = true;
  EXPECT_EQ(flip->Choose(enabled, At(3, 1, pending)).thread, 2u);
  EXPECT_TRUE(std::string(flip->Choose(enabled, yielding).mismatch).ends_with("it waits there for another thread"));
}

TEST(RaceFlipStrategy, AnExecutionThatEndsUnflippedIsNoFlip) {
  std::unique_ptr<Strategy> before = MakeRaceFlipStrategy({}, Race(), 0);
  before->BeginExecution(0);
  EXPECT_TRUE(before->EndExecution(2).ends_with("the execution ended before the point to flip at"));
  std::unique_ptr<Strategy> during = MakeRaceFlipStrategy({}, Race(), 1);
  during->BeginExecution(0);
  const std::vector<ThreadId> enabled = {1, 2};
  std::vector<PendingOperation> pending(2);
  EXPECT_EQ(during->Choose(enabled, At(3, 1, pending)).thread, 2u);
  EXPECT_TRUE(during->EndExecution(3).ends_with("the execution ended first"));
}

Outcome Passed() { return {}; }

Outcome Failed(const char* message) {
  Outcome outcome;
  outcome.verdict = Verdict::kFailure;
  outcome.message = message;
  outcome.anchored = {{0, 1, 2, true, false}};
  return outcome;
}

Outcome CannotFlip() {
  Outcome outcome;
  outcome.verdict = Verdict::kUnsupported;
  outcome.schedule_mismatch = std::string(kCannotFlip) + "T2 does not reach its access before T1's: why";
  return outcome;
}

std::string ReplayOf(const std::string& schedule) { return "replay " + schedule; }

TEST(TellWhetherRaceMatters, TheOrderAsFoundFailingComesFirst) {
  std::vector<std::optional<std::uint64_t>> runs;
  const RaceFlipped told = TellWhetherRaceMatters(
      Race(), 20,
      [&](std::optional<std::uint64_t> continuation) -> std::optional<Outcome> {
        runs.push_back(continuation);
        return Failed("lost update\nmore");
      },
      ReplayOf);
  EXPECT_EQ(runs, std::vector<std::optional<std::uint64_t>>{std::nullopt});
  EXPECT_EQ(told.line,
            "running on past the race as found (T1's write before T2's read) makes the execution fail: failure: lost "
            "update");
  EXPECT_TRUE(told.schedule.starts_with("S1-1-2-")) << told.schedule;
  EXPECT_EQ(told.replay, "replay " + told.schedule);
}

TEST(TellWhetherRaceMatters, TheFirstFlipThatFailsIsTold) {
  const RaceFlipped told = TellWhetherRaceMatters(
      Race(), 20,
      [](std::optional<std::uint64_t> continuation) -> std::optional<Outcome> {
        if (continuation == 2) return Failed("lost update");
        return Passed();
      },
      ReplayOf);
  EXPECT_EQ(told.line,
            "flipping the order (T2's read before T1's write) in flipped schedule 3 makes the execution fail: "
            "failure: lost update");
  EXPECT_FALSE(told.replay.empty());
}

TEST(TellWhetherRaceMatters, NoFailureCountsTheSchedulesThatAnswered) {
  const RaceFlipped told = TellWhetherRaceMatters(
      Race(), 5,
      [](std::optional<std::uint64_t> continuation) -> std::optional<Outcome> {
        if (continuation == 4) return std::nullopt;
        return Passed();
      },
      ReplayOf);
  EXPECT_EQ(told.line,
            "no failure running on past the race as found, nor when flipped (T2's read before T1's write) in 4 "
            "schedules; 1 more gave no answer in time");
  EXPECT_EQ(told.schedule, "");
  EXPECT_EQ(told.replay, "");
}

TEST(TellWhetherRaceMatters, AFlipThatCannotBeMadeStopsTheFlips) {
  int flips = 0;
  const RaceFlipped told = TellWhetherRaceMatters(
      Race(), 20,
      [&](std::optional<std::uint64_t> continuation) -> std::optional<Outcome> {
        if (!continuation) return Passed();
        ++flips;
        return CannotFlip();
      },
      ReplayOf);
  EXPECT_EQ(flips, 1);
  EXPECT_EQ(told.line,
            "no failure running on past the race as found; cannot flip the order: T2 does not reach its access "
            "before T1's: why");
}

TEST(RaceFlipTexts, ARaceToFlipRoundTrips) {
  const RaceToFlip race = Race();
  const RaceToFlip back = DecodeRaceToFlip(EncodeRaceToFlip(race));
  EXPECT_EQ(back.earlier, race.earlier);
  EXPECT_EQ(back.later, race.later);
  EXPECT_EQ(back.choice_point, race.choice_point);
  EXPECT_EQ(back.later_site, race.later_site);
  EXPECT_EQ(back.earlier_writes, race.earlier_writes);
  EXPECT_EQ(back.later_writes, race.later_writes);
  EXPECT_EQ(back.later_points, race.later_points);
  for (const char* malformed : {"", "3.1.2", "3.1.2.ff.1.0", "3.1.2.ff.0.1.0x", "0.1.2.ff.0.1.0", "3.1.2.zz.0.1.0"}) {
    EXPECT_THROW(DecodeRaceToFlip(malformed), std::invalid_argument) << malformed;
  }
}

TEST(RaceFlipTexts, TheAnswerRoundTripsThroughOneWord) {
  const RaceFlipped answer = {"a: line\nwith: colons", "", "SIM_OPTIONS=schedule=S1-1-0-abcd:races=0 ./prog"};
  const std::string word = EncodeRaceFlipped(answer);
  EXPECT_EQ(word.find_first_of(": \n"), std::string::npos) << word;
  RaceFlipped back;
  ASSERT_TRUE(DecodeRaceFlipped(word, back));
  EXPECT_EQ(back.line, answer.line);
  EXPECT_EQ(back.schedule, answer.schedule);
  EXPECT_EQ(back.replay, answer.replay);
  for (const char* malformed : {"", "61", "61.-", "6.-.-", "xy.-.-"}) {
    EXPECT_FALSE(DecodeRaceFlipped(malformed, back)) << malformed;
  }
}

}  // namespace
}  // namespace sim::internal
