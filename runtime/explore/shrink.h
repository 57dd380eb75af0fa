// shrink.h: reduces a failing schedule to the preemptions that matter.
//
// No comparable tool does this: loom, shuttle, Coyote and Fray hand over a
// seed and a long trace. Starting from the failing schedule, each preemption
// (a switch away from a thread that could have gone on) is taken out in
// turn: the preempted thread runs on until it blocks or finishes, and only
// then does the thread it was preempted for run. Other decisions are anchored
// to their thread's own progress and replayed leniently (where the schedule
// no longer fits, the running thread goes on). A removal is kept when the
// execution still fails with the same verdict at the same sites, and the
// search repeats until no single removal does (1-minimal, as in delta
// debugging). Then a bounded search from 0 preemptions up finds and proves
// the fewest, taking turns, where a bound runs long, with schedules near
// greedy's result with a preemption fewer (near_schedules.h). The result is
// the execution of the shrunk schedule, with its whole trace told as a
// story.
//
// What bounds the search is a count of candidate executions
// (shrink_candidates), so the result is a function of the failure and the
// same seed prints the same report on any machine. A wall-clock cap
// (shrink_budget_ms) is only a safety net; when it cuts the search the
// report says so, since the result then depends on machine speed.
#ifndef SIM_RUNTIME_SHRINK_H_
#define SIM_RUNTIME_SHRINK_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/world.h"

namespace sim::internal {

// Why shrinking stopped.
enum class ShrinkStop {
  kDone,            // no candidate left that could improve the result
  kCandidateBound,  // shrink_candidates ran out (the same on every machine)
  kTimeCap,         // shrink_budget_ms ran out first (depends on machine speed)
  // A whole program's schedule too long to pass to a candidate process (an
  // environment variable holds 128 KiB): no candidate could run.
  kScheduleTooLong,
};

struct ShrinkResult {
  Outcome outcome;  // of the shrunk schedule (its decisions replay it exactly), with a story
  std::uint64_t preemptions_before = 0;
  std::uint64_t candidates = 0;  // executions tried, not counting the final one that tells the story
  ShrinkStop stop = ShrinkStop::kDone;
  std::optional<std::uint64_t> minimum_at_least;  // Report::minimum_at_least
};

// Report::minimum_at_least after a bounded phase that tried every schedule
// with fewer than `searched_below` preemptions, for a result of `best`.
inline std::optional<std::uint64_t> MinimumAtLeast(std::uint64_t searched_below, std::uint64_t best) {
  if (searched_below >= best) return std::nullopt;
  return searched_below;
}

// shrink_candidates=0 picks these, by what a candidate costs: a replay in
// process takes well under a millisecond for the bug suite (bench/bugs/), a
// rerun of a whole program 1-5 ms (a fork of a process that ran static
// initialisation once). Each covers every example, bench/bugs/ program and
// cookbook recipe (the most: 7519 replays, payment_handler_exists_then_set;
// 2,440 reruns, dining_philosophers_4, whose minimum of one preemption only
// the bounded phase finds; docs/performance.md).
constexpr std::uint64_t kShrinkReplaysInProcess = 10000;
constexpr std::uint64_t kShrinkReruns = 2000;

// Hands out candidate executions: at most options.shrink_candidates (or
// `default_candidates` when that is 0), and none once
// options.shrink_budget_ms of wall-clock time has passed since construction.
class ShrinkBudget {
 public:
  ShrinkBudget(const Options& options, std::uint64_t default_candidates);
  // Whether one more candidate may run. Yes: counts it in `result`. No:
  // records in `result` which bound stopped the search (the count first,
  // so that a search the count ends is never put down to time).
  bool Take(ShrinkResult& result);
  // When the wall-clock cap runs out (for killing a candidate process).
  std::chrono::steady_clock::time_point deadline() const { return deadline_; }
  std::uint64_t bound() const { return candidates_; }  // the most candidates it hands out

 private:
  std::uint64_t candidates_;
  std::chrono::steady_clock::time_point deadline_;
};

// The options a candidate schedule runs under: `options` with max_steps cut
// to a few times the failing execution's length. Taking out the preemption
// a spin loop waited on leaves the spinning thread running on (the running
// thread goes on where the schedule no longer fits) until a step limit; at
// the default limits (a million steps) each such candidate cost about a
// second on library code, so the count bound was never reached before the
// time cap. A candidate that much longer than the failure is not the same
// failure anyway. A failure that is itself a step limit or livelock keeps
// the limits it was found under.
Options CandidateOptions(const Options& options, const Outcome& failing);

// The report's line for a search a bound cut short ("" for kDone), e.g.
// "shrinking stopped by the time cap (shrink_budget_ms=5000) after 412
// candidates; the result depends on machine speed".
std::string ShrinkStopNote(ShrinkStop stop, std::uint64_t candidates, const Options& options);

// Precondition: `failing` is the outcome of `body` under `options` at `seed`.
// With options.shrink == 0 only retells `failing` (one replay for its story).
// What shrinking keeps: the same verdict at the same sites.
bool SameFailure(const Outcome& candidate, const Outcome& failing);

// Runs one execution that follows `decisions` leniently (anchored replay).
using ReplayAnchored = std::function<Outcome(const std::vector<AnchoredDecision>& decisions)>;

// The greedy phase: takes preemptions out (each turned into a deferred
// switch), all at once first, then in halves, quarters and so on down to
// one at a time, keeping every removal that still fails the same way, until
// no single one does or `budget` refuses a candidate (recorded in `result`).
// Returns the outcome of the last removal kept (every decision in its
// `anchored`), or `failing` when none was.
Outcome RemovePreemptions(const Outcome& failing, ShrinkBudget& budget, const ReplayAnchored& replay,
                          ShrinkResult& result);
std::uint64_t PreemptionsIn(const std::vector<AnchoredDecision>& decisions);

ShrinkResult ShrinkFailure(const std::function<void()>& body, const Options& options, std::uint64_t seed,
                           const Outcome& failing);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_SHRINK_H_
