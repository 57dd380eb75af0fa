// The schedules near a failing one, in the order shrinking tries them, and
// the phase that keeps the first with fewer preemptions that still fails.
// tests/tools/sim_run_shrink_minimum.sh runs it on programs.
#include "explore/near_schedules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "strategy/schedule.h"

namespace sim::internal {
namespace {

AnchoredDecision GoesOn(ThreadId thread, std::uint64_t points) { return {thread, points, thread, false, false}; }
AnchoredDecision Preempts(ThreadId thread, std::uint64_t points, ThreadId to) { return {thread, points, to, true, false}; }

// The preemptions of `schedule`, as "T<thread>@<points>-><chosen>", sorted.
std::vector<std::string> PreemptionsOf(const std::vector<AnchoredDecision>& schedule) {
  std::vector<std::string> found;
  for (const AnchoredDecision& decision : schedule) {
    if (decision.preemption) {
      found.push_back("T" + std::to_string(decision.current) + "@" + std::to_string(decision.current_points) + "->" +
                      std::to_string(decision.chosen));
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// T1 preempted at its point 3 for T2, which is preempted at its point 2.
std::vector<AnchoredDecision> TwoPreemptions() {
  return {GoesOn(1, 1), GoesOn(1, 2), Preempts(1, 3, 2), GoesOn(2, 1), Preempts(2, 2, 1), GoesOn(1, 4), GoesOn(1, 5)};
}

TEST(NearSchedules, DropsOneLatestFirstThenMovesTheOthersOutwardEarlierFirst) {
  NearSchedules near(TwoPreemptions(), /*farthest=*/2);
  std::vector<std::vector<std::string>> given;
  while (std::optional<std::vector<AnchoredDecision>> schedule = near.Next()) given.push_back(PreemptionsOf(*schedule));
  const std::vector<std::vector<std::string>> expected = {
      {"T1@3->2"}, {"T2@2->1"},             // one dropped, the later first
      {"T1@2->2"}, {"T1@4->2"},             // T2's dropped, T1's moved by 1, earlier first
      {"T2@1->1"}, {"T2@3->1"},             // T1's dropped, T2's moved by 1
      {"T1@1->2"}, {"T1@5->2"},             // by 2
      {"T2@0->1"}, {"T2@4->1"},
  };
  EXPECT_EQ(given, expected);
}

TEST(NearSchedules, AMovedPreemptionTakesThePlaceOfTheDecisionThere) {
  NearSchedules near(TwoPreemptions(), 1);
  near.Next();
  near.Next();
  const std::optional<std::vector<AnchoredDecision>> moved = near.Next();  // T1's moved to its point 2
  ASSERT_TRUE(moved);
  std::set<std::pair<ThreadId, std::uint64_t>> anchors;
  for (const AnchoredDecision& decision : *moved) {
    EXPECT_TRUE(anchors.insert({decision.current, decision.current_points}).second) << "two decisions at one anchor";
  }
  EXPECT_FALSE(anchors.contains({1, 3})) << "where it was, T1 goes on";
  EXPECT_FALSE(anchors.contains({2, 2})) << "the dropped one is gone";
  EXPECT_TRUE(anchors.contains({1, 1}) && anchors.contains({2, 1}) && anchors.contains({1, 4}));
}

TEST(NearSchedules, NothingBeforeAThreadsFirstPointNorTwice) {
  // One preemption: dropping it is the only schedule (nothing is left to move).
  NearSchedules alone({GoesOn(1, 0), Preempts(1, 1, 2)}, 5);
  ASSERT_TRUE(alone.Next());
  EXPECT_FALSE(alone.Next());
  // Moving T1's at point 0 earlier would be before its first point.
  NearSchedules early({Preempts(1, 0, 2), Preempts(2, 0, 1)}, 3);
  std::set<std::string> seen;
  while (std::optional<std::vector<AnchoredDecision>> schedule = early.Next()) {
    for (const std::string& preemption : PreemptionsOf(*schedule)) {
      EXPECT_EQ(preemption.find("@18446744073709551"), std::string::npos) << preemption;
    }
    EXPECT_TRUE(seen.insert(EncodeAnchored(*schedule)).second) << "given twice";
  }
  EXPECT_EQ(seen.size(), 2u + 3u * 2u);  // two drops; each remaining one moved later by 1, 2, 3
}

// A bug that needs T1 preempted for T2 at its point 7; greedy removal left
// T1's at point 10 with T2's at point 4, which fails too.
Outcome RunTheBug(const std::vector<AnchoredDecision>& schedule) {
  Outcome outcome;
  outcome.anchored = schedule;
  outcome.preemptions = PreemptionsOf(schedule).size();
  const std::vector<std::string> preemptions = PreemptionsOf(schedule);
  const auto has = [&](const char* preemption) {
    return std::find(preemptions.begin(), preemptions.end(), preemption) != preemptions.end();
  };
  if (has("T1@7->2") || (has("T1@10->2") && has("T2@4->1"))) {
    outcome.verdict = Verdict::kFailure;
    outcome.failure_signature = 42;
  }
  return outcome;
}

TEST(MovePreemptions, FindsTheOnePreemptionNearThoseGreedyLeft) {
  std::vector<AnchoredDecision> greedy_left;
  for (std::uint64_t points = 1; points <= 12; ++points) {
    greedy_left.push_back(points == 10 ? Preempts(1, points, 2) : GoesOn(1, points));
  }
  for (std::uint64_t points = 1; points <= 6; ++points) {
    greedy_left.push_back(points == 4 ? Preempts(2, points, 1) : GoesOn(2, points));
  }
  const Outcome failing = RunTheBug(greedy_left);
  ASSERT_EQ(failing.verdict, Verdict::kFailure);
  Options options;
  ShrinkBudget budget(options, /*default_candidates=*/400);
  ShrinkResult result;
  const Outcome kept = MovePreemptions(failing, failing, budget, RunTheBug, result);
  EXPECT_EQ(PreemptionsOf(kept.anchored), std::vector<std::string>{"T1@7->2"});
  // Two drops, then two moves either way at each of distances 1 and 2, then
  // the one at distance 3 that fails.
  EXPECT_EQ(result.candidates, 2u + 4u + 4u + 1u);

  // With fewer candidates than that (a quarter of the budget), it keeps
  // what it was given.
  ShrinkBudget small(options, /*default_candidates=*/40);
  ShrinkResult cut;
  EXPECT_EQ(PreemptionsOf(MovePreemptions(failing, failing, small, RunTheBug, cut).anchored).size(), 2u);
  EXPECT_EQ(cut.candidates, 10u);
}

}  // namespace
}  // namespace sim::internal
