// near_schedules.h: schedules with one preemption fewer than a failing
// one, nearest to it first, tried by shrinking beside the bounded search.
//
// Taking preemptions out (RemovePreemptions) stops where no removal still
// fails; the few preemptions the bug needs may then sit a few steps away
// from those left. tbb's lost order: greedy removal leaves 3, and the one
// the bug needs preempts the same thread about 20 choice points before the
// first of them; the bounded search, which tries preemptions from the last
// choice point backwards, finds it only after 1,235 schedules. So these are
// tried too, nearest first: one of the preemptions dropped (its thread goes
// on there), then each of those kept moved by 1, 2, ... of its thread's
// own scheduling points, earlier and later. The first that fails the same
// way is kept and the next level starts from it. They take turns with the
// bounded search (kBoundedBeforeNear), which alone proves a minimum.
#ifndef SIM_RUNTIME_EXPLORE_NEAR_SCHEDULES_H_
#define SIM_RUNTIME_EXPLORE_NEAR_SCHEDULES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "explore/shrink.h"

namespace sim::internal {

// The schedules a bound of the bounded search runs before the near phase
// starts, once per shrink: a bound with few schedules (most bugs' 0 and 1)
// ends first. From then on the search and the phase take turns, one
// candidate each, so that whichever finds a schedule with fewer
// preemptions first costs at most twice what it would alone, and the one
// that would not have found it wastes no more than that.
inline constexpr std::uint64_t kBoundedBeforeNear = 64;

class NearSchedules {
 public:
  // Schedules near `decisions` (every decision of a failing execution)
  // with one of its preemptions dropped, each kept one moved by at most
  // `farthest` of its thread's points.
  NearSchedules(std::vector<AnchoredDecision> decisions, std::uint64_t farthest);
  // The next one, nearest first; nullopt when all have been given. Never
  // the same decisions twice.
  std::optional<std::vector<AnchoredDecision>> Next();

 private:
  // The schedule with preemption `dropped` left out and, when `moved` is
  // set, preemption `*moved` taken `shift` points of its thread later (or
  // earlier, when negative); nullopt where that point would be before the
  // thread's first.
  std::optional<std::vector<AnchoredDecision>> Make(std::size_t dropped, std::optional<std::size_t> moved,
                                                    std::int64_t shift) const;

  std::vector<AnchoredDecision> decisions_;
  std::vector<std::size_t> preemptions_;  // indices into decisions_, in execution order
  std::uint64_t farthest_;
  // Where the enumeration is: the distance, then within it which one is
  // dropped (the latest first), which kept one moves and which way
  // (earlier first).
  std::uint64_t distance_ = 0;
  std::size_t position_ = 0;
  std::set<std::string> given_;  // encoded, so that none is given twice
};

// The phase: from `greedy`'s preemptions down, while a near schedule (with
// one fewer) fails as `failing` did, that execution is kept and the next
// level starts from it. At most `most` candidates.
class NearPhase {
 public:
  NearPhase(Outcome greedy, Outcome failing, std::uint64_t most);
  // The next schedule to run; nullopt once the phase is over (no level
  // left, none near failed, or `most` given).
  std::optional<std::vector<AnchoredDecision>> Next();
  // What the schedule Next gave last did. True when it is kept (it failed
  // the same way with fewer preemptions).
  bool Record(Outcome outcome);
  const Outcome& kept() const { return kept_; }

 private:
  Outcome kept_;
  Outcome failing_;
  std::uint64_t left_;
  std::optional<NearSchedules> level_;  // the schedules near kept_; none when over
};

// At most this many candidates (and no more than a quarter of what a
// shrink's budget allows), so that the bounded search that proves the
// minimum keeps the rest.
inline constexpr std::uint64_t kNearCandidates = 256;
std::uint64_t NearCandidates(const ShrinkBudget& budget);

// The phase's turns in a bounded search's loop (shrink.cpp,
// whole_program/rerun.cpp): none until a bound's kBoundedBeforeNear-th
// schedule, then one candidate before each of the search's.
class NearTurns {
 public:
  NearTurns(const Outcome& greedy, const Outcome& failing) : greedy_(greedy), failing_(failing) {}
  enum class Turn {
    kNothingBetter,
    kFewerPreemptions,  // kept() failed the same way with fewer than `best_preemptions`
    kBudgetSpent,
  };
  // Before the search's schedule number `run` of its bound.
  Turn Take(std::uint64_t run, std::uint64_t best_preemptions, ShrinkBudget& budget, ShrinkResult& result,
            const ReplayAnchored& replay);
  const Outcome& kept() const { return phase_->kept(); }

 private:
  const Outcome& greedy_;
  const Outcome& failing_;
  std::optional<NearPhase> phase_;
  bool started_ = false;
};

// The phase alone, its candidates one after another, each taken from
// `budget` (the shrinkers interleave it with their bounded search through
// NearTurns instead). Returns the last kept.
Outcome MovePreemptions(const Outcome& greedy, const Outcome& failing, ShrinkBudget& budget,
                        const ReplayAnchored& replay, ShrinkResult& result);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_EXPLORE_NEAR_SCHEDULES_H_
