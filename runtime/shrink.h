// shrink.h: reduces a failing schedule to the preemptions that matter.
//
// No comparable tool does this: loom, shuttle, Coyote and Fray hand over a
// seed and a long trace. Starting from the failing schedule, each preemption
// (a switch away from a thread that could have gone on) is taken out in
// turn: the preempted thread runs on until it blocks or finishes, and only
// then does the thread it was preempted for run. Other decisions are anchored
// to their thread's own progress and replayed leniently (where the schedule
// no longer fits, the running thread goes on). A removal is kept when the
// execution still
// fails with the same verdict at the same sites, and the search repeats until
// no single removal does (1-minimal, as in delta debugging). The result is
// the execution of the shrunk schedule, with its whole trace told as a story.
#ifndef SIM_RUNTIME_SHRINK_H_
#define SIM_RUNTIME_SHRINK_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "world.h"

namespace sim::internal {

struct ShrinkResult {
  Outcome outcome;  // of the shrunk schedule (its decisions replay it exactly), with a story
  std::uint64_t preemptions_before = 0;
  std::uint64_t replays = 0;
  bool out_of_budget = false;
};

// Precondition: `failing` is the outcome of `body` under `options` at `seed`.
// With options.shrink == 0 only retells `failing` (one replay for its story).
// What shrinking keeps: the same verdict at the same sites.
bool SameFailure(const Outcome& candidate, const Outcome& failing);

// Runs one execution that follows `decisions` leniently (anchored replay).
using ReplayAnchored = std::function<Outcome(const std::vector<AnchoredDecision>& decisions)>;

// The greedy phase: takes preemptions out one at a time (each turned into a
// deferred switch), keeping every removal that still fails the same way,
// until none does or the deadline passes. Counts replays in `result`.
std::vector<AnchoredDecision> RemovePreemptions(const Outcome& failing,
                                                std::chrono::steady_clock::time_point deadline,
                                                const ReplayAnchored& replay, ShrinkResult& result);
std::uint64_t PreemptionsIn(const std::vector<AnchoredDecision>& decisions);

ShrinkResult ShrinkFailure(const std::function<void()>& body, const Options& options, std::uint64_t seed,
                           const Outcome& failing);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_SHRINK_H_
