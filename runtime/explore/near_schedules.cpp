// near_schedules.cpp: see near_schedules.h.
#include "explore/near_schedules.h"

#include <algorithm>

#include "strategy/schedule.h"

namespace sim::internal {

NearSchedules::NearSchedules(std::vector<AnchoredDecision> decisions, std::uint64_t farthest)
    : decisions_(std::move(decisions)), farthest_(farthest) {
  for (std::size_t i = 0; i < decisions_.size(); ++i) {
    if (decisions_[i].preemption) preemptions_.push_back(i);
  }
}

std::optional<std::vector<AnchoredDecision>> NearSchedules::Make(std::size_t dropped, std::optional<std::size_t> moved,
                                                                 std::int64_t shift) const {
  const auto same_anchor = [](const AnchoredDecision& decision, ThreadId thread, std::uint64_t points) {
    return decision.current == thread && decision.current_points == points;
  };
  std::vector<AnchoredDecision> schedule = decisions_;
  AnchoredDecision moving;
  if (moved) {
    moving = decisions_[preemptions_[*moved]];
    if (shift < 0 && moving.current_points < static_cast<std::uint64_t>(-shift)) return std::nullopt;
  }
  // Left out: where the dropped one was, its thread goes on; the moved one
  // leaves its place for where it goes, whatever was decided there.
  const AnchoredDecision& left_out = decisions_[preemptions_[dropped]];
  std::erase_if(schedule, [&](const AnchoredDecision& decision) {
    return same_anchor(decision, left_out.current, left_out.current_points) ||
           (moved && same_anchor(decision, moving.current, moving.current_points));
  });
  if (moved) {
    moving.current_points = static_cast<std::uint64_t>(static_cast<std::int64_t>(moving.current_points) + shift);
    std::erase_if(schedule, [&](const AnchoredDecision& decision) {
      return same_anchor(decision, moving.current, moving.current_points);
    });
    schedule.push_back(moving);
  }
  return schedule;
}

std::optional<std::vector<AnchoredDecision>> NearSchedules::Next() {
  const std::size_t count = preemptions_.size();
  while (count != 0 && distance_ <= farthest_) {
    // At distance 0 one schedule per dropped preemption; further, for each,
    // each of the others moved either way.
    const std::size_t per_dropped = distance_ == 0 ? 1 : (count - 1) * 2;
    if (per_dropped == 0 || position_ >= count * per_dropped) {
      ++distance_;
      position_ = 0;
      if (count == 1) return std::nullopt;  // nothing left to move
      continue;
    }
    const std::size_t dropped = count - 1 - position_ / per_dropped;
    std::optional<std::size_t> moved;
    std::int64_t shift = 0;
    if (distance_ != 0) {
      const std::size_t within = position_ % per_dropped;
      const std::size_t kept = within / 2;  // the kept ones in order, `dropped` skipped
      moved = kept < dropped ? kept : kept + 1;
      shift = (within % 2 == 0 ? -1 : 1) * static_cast<std::int64_t>(distance_);
    }
    ++position_;
    std::optional<std::vector<AnchoredDecision>> schedule = Make(dropped, moved, shift);
    if (schedule && given_.insert(EncodeAnchored(*schedule)).second) return schedule;
  }
  return std::nullopt;
}

namespace {

// Far enough for tbb's lost order (20 points); the candidate count is what
// bounds the phase.
constexpr std::uint64_t kFarthest = 256;

}  // namespace

NearPhase::NearPhase(Outcome greedy, Outcome failing, std::uint64_t most)
    : kept_(std::move(greedy)), failing_(std::move(failing)), left_(most) {
  if (PreemptionsIn(kept_.anchored) >= 2) level_.emplace(kept_.anchored, kFarthest);
}

std::optional<std::vector<AnchoredDecision>> NearPhase::Next() {
  if (!level_ || left_ == 0) return std::nullopt;
  std::optional<std::vector<AnchoredDecision>> schedule = level_->Next();
  if (!schedule) {
    level_.reset();  // none near failed: over
    return std::nullopt;
  }
  --left_;
  return schedule;
}

bool NearPhase::Record(Outcome outcome) {
  if (!SameFailure(outcome, failing_) || outcome.preemptions >= kept_.preemptions) return false;
  kept_ = std::move(outcome);
  level_.reset();
  if (PreemptionsIn(kept_.anchored) >= 2) level_.emplace(kept_.anchored, kFarthest);
  return true;
}

std::uint64_t NearCandidates(const ShrinkBudget& budget) { return std::min(kNearCandidates, budget.bound() / 4); }

NearTurns::Turn NearTurns::Take(std::uint64_t run, std::uint64_t best_preemptions, ShrinkBudget& budget,
                                ShrinkResult& result, const ReplayAnchored& replay) {
  if (run == kBoundedBeforeNear && !started_) {
    started_ = true;
    phase_.emplace(greedy_, failing_, NearCandidates(budget));
  }
  std::optional<std::vector<AnchoredDecision>> schedule = phase_ ? phase_->Next() : std::nullopt;
  if (!schedule) return Turn::kNothingBetter;
  if (!budget.Take(result)) return Turn::kBudgetSpent;
  return phase_->Record(replay(*schedule)) && phase_->kept().preemptions < best_preemptions ? Turn::kFewerPreemptions
                                                                                          : Turn::kNothingBetter;
}

Outcome MovePreemptions(const Outcome& greedy, const Outcome& failing, ShrinkBudget& budget,
                        const ReplayAnchored& replay, ShrinkResult& result) {
  NearPhase near(greedy, failing, NearCandidates(budget));
  while (std::optional<std::vector<AnchoredDecision>> schedule = near.Next()) {
    if (!budget.Take(result)) break;
    near.Record(replay(*schedule));
  }
  return near.kept();
}

}  // namespace sim::internal
