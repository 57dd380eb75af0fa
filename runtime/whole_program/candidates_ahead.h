// candidates_ahead.h: a bounded search's candidate processes, two at once.
//
// A bounded search (strategy/bounded_search.h) asks for one schedule at a
// time, and which it asks for next depends on what the last one met, so its
// candidates cannot simply be split between cores. But the schedules it
// will ask for once the current one's subtree is done are known now
// (BoundedSearch::PrefixesAhead), and a candidate's outcome depends only on
// its schedule: while one runner runs the schedule asked for, a second runs
// the nearest of those, and its outcome waits until the search asks for it.
// The search sees the same outcomes in the same order as with one runner,
// so what it finds and how many candidates it counts do not depend on the
// number of jobs; a schedule run ahead that the search never asks for (it
// found its failure first) is only work lost.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_CANDIDATES_AHEAD_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_CANDIDATES_AHEAD_H_

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "strategy/bounded_search.h"
#include "whole_program/rerun.h"

namespace sim::internal {

// How many candidate processes whole-program shrinking and a search across
// processes run at once: options.shrink_jobs, where 0 is 2 when this
// process may run on two CPUs or more and 1 otherwise; more than 2 runs as 2.
std::uint64_t ShrinkJobs(const Options& options);

class CandidatesAhead {
 public:
  // Candidates run by `runner`, and with `jobs` >= 2 ahead of time by a
  // runner of its own.
  CandidatesAhead(CandidateRunner& runner, std::uint64_t jobs) : runner_(runner), jobs_(jobs) {}

  // The outcome of the candidate given `options`, as CandidateRunner::Run
  // gives it: found among those run ahead, or run now, and then beside it,
  // with jobs >= 2, the candidate given `later` ("" for none), whose outcome
  // waits until it is asked for.
  std::optional<CandidateResult> Run(const std::string& options, const std::string& later,
                                     std::chrono::steady_clock::time_point deadline);
  // The schedule `search` asks for (BoundedSearch::Prefix), anchored after
  // `options`, with the nearest one it will ask for later run beside it.
  std::optional<CandidateResult> Run(const std::string& options, const BoundedSearch& search,
                                     std::chrono::steady_clock::time_point deadline);

 private:
  bool RanAhead(const std::string& options) const { return ran_ahead_.contains(options); }

  CandidateRunner& runner_;
  std::uint64_t jobs_;
  std::optional<CandidateRunner> ahead_;  // started at its first use
  // By options: outcomes not asked for yet.
  std::map<std::string, std::optional<CandidateResult>> ran_ahead_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_CANDIDATES_AHEAD_H_
