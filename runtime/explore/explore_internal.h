// explore_internal.h: what explore() and whole-program mode share.
#ifndef SIM_RUNTIME_EXPLORE_INTERNAL_H_
#define SIM_RUNTIME_EXPLORE_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "core/world.h"
#include "sim/sim.h"

namespace sim::internal {

// The public report of a finished execution: schedule text, replay command.
Report MakeReport(Outcome outcome, std::uint64_t seed, std::uint64_t seeds_passed, const Options& options);

// The shared library not built with sim-clang++ that keeps a bounded
// search's partial-order reduction off (core/uninstrumented_library.h), or
// "" when the reduction is on or options.por turned it off.
std::string LibraryKeepingReductionOff(const Options& options);

// How a bounded search (options.strategy, dfs:P) ended without a failure,
// on stderr: "no failure in any schedule with <= P preemptions: N
// schedules" when it ran them all, else where it stopped and that raising
// `schedule_cap` (how the caller's user names it) lets it finish; and when
// a library kept partial-order reduction off, which one.
void SayBoundedSearchPassed(const Options& options, std::uint64_t schedules, bool exhausted, const char* schedule_cap);

// Called after every execution with its seed and outcome (trace hash,
// steps, verdict), passing ones included.
using ExecutionObserver = std::function<void(std::uint64_t seed, const Outcome& outcome)>;

// The replay command of a seed, as the text before the seed and after it,
// for `options` (whose strategy is the one to name). The short report of a
// crash inside libc prints it from a signal handler, so it is made ahead.
using ReplayAroundSeed = std::function<std::pair<std::string, std::string>(const Options& options)>;

// explore() once SIM_OPTIONS is applied: `options` are final (SIM_TEST
// applies the environment and then its --sim_* flags, which must win).
// `replay_around_seed` defaults to the SIM_OPTIONS=seed=N form.
std::optional<Report> ExploreWithOptions(std::function<void()> body, const Options& options,
                                         const ExecutionObserver& observe = nullptr,
                                         const ReplayAroundSeed& replay_around_seed = nullptr);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_EXPLORE_INTERNAL_H_
