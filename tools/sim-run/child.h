// child.h: one seed's process: starting it, and what its end means.
//
// A child is the user's program started (spawned here, or forked by a fork
// server: fork_server.h) with SIM_OPTIONS naming its seed and
// a report_json file, in a process group of its own (so a hang can be killed
// with everything it started), stdin from /dev/null, stdout discarded and
// stderr captured to a file: the runtime's report block goes there. What a
// verdict means is the runtime's business; this file only maps the exit
// status, the signal and the child's JSON onto sim-run's words.
#ifndef SIM_TOOLS_SIM_RUN_CHILD_H_
#define SIM_TOOLS_SIM_RUN_CHILD_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/exit_status.h"
#include "common/shell_quote.h"

namespace simrun {

// The exit status whole-program mode uses for a verdict the runtime detected
// (failure, deadlock, step limit, uncaught exception, unsupported).
inline constexpr int kRuntimeFailureExitStatus = sim::exit_status::kVerdict;

// What every child of one sim-run shares.
struct LaunchSpec {
  std::string program_path;             // resolved: what posix_spawn executes
  std::vector<std::string> argv;        // argv[0] as the user typed it, then the arguments
  std::string base_options;             // the user's SIM_OPTIONS, possibly empty
  std::string strategy;                 // --strategy, possibly empty
  std::string schedule;                 // --schedule (a schedule or @FILE), possibly empty
  std::string shrink;                   // --shrink / --no-shrink: "1" or "0"; empty: the default
  int pass_exit_status = 0;             // --pass-exit-status, or pass_exit_status in the user's SIM_OPTIONS
  bool pass_exit_status_given = false;  // --pass-exit-status: the children get it in SIM_OPTIONS too
  std::string scratch_dir;              // where per-seed report and stderr files go
  // dfs:P when the run is a bounded search: one process drives it (seeds=N
  // caps its schedules, schedule_timeout_ms kills a hung one) and reports.
  std::string bounded_search;
  std::optional<std::uint64_t> schedule_cap;
  std::optional<std::uint64_t> schedule_timeout_ms;
  // Seeds learn pct's estimate from the seeds before (pct_estimates.h):
  // not for a schedule or a bounded search, nor when SIM_OPTIONS sets
  // pct_choice_points itself.
  bool learns_pct_choice_points = false;
  // --keep-going: where each seed claims the data race it tells, so that
  // later seeds meeting the same pair of sites are not shrunk again
  // (runtime/whole_program/known_failures.h); empty otherwise.
  std::string known_failures_dir;
};

// SIM_OPTIONS for `seed`, without report_json: what the replay line sets.
// `pct_choice_points` (pct_estimates.h), unless 0, is pct's estimate.
std::string SeedOptions(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points = 0);

// The copy-pasteable command that replays `seed`:
// SIM_OPTIONS=seed=K ./prog args (shell-quoted).
std::string ReplayCommand(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points = 0);

using sim::common::ShellQuote;  // common/shell_quote.h, shared with the runtime

std::string ReportJsonPath(const LaunchSpec& spec, std::uint64_t seed);
std::string StderrPath(const LaunchSpec& spec, std::uint64_t seed);
// Where a bounded search's process writes how many schedules it has run.
std::string SearchProgressPath(const LaunchSpec& spec);
// Where a seed's process writes how many choice points it met.
std::string ChoicePointsPath(const LaunchSpec& spec, std::uint64_t seed);

// SIM_OPTIONS for `seed` as the child gets it: SeedOptions plus its
// report_json (and, when sim-run learns pct's estimate, where the child
// writes its count of choice points).
std::string ChildOptions(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points = 0);

// Starts the child for `seed`. Returns its pid (also its process group id), or
// -1 with errno set.
pid_t SpawnSeed(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points = 0);

// Starts the program as SpawnSeed does, with SIM_OPTIONS=`sim_options`,
// stderr on `stderr_path` and, when `fd3` >= 0, that descriptor as fd 3.
pid_t SpawnProgram(const LaunchSpec& spec, const std::string& sim_options, const std::string& stderr_path, int fd3);

// How one seed ended.
struct Outcome {
  bool passed = false;
  std::string verdict;      // for the summary line: "deadlock", "crash (SIGABRT)", "exit status 1", "hang (...)"
  std::string kind;         // for --report-json: the child's verdict, "crash", "hang" or "exit status N"
  std::string message;      // from the child's JSON, or a description of the exit
  std::string schedule;     // from the child's JSON; empty when it wrote none
  std::string trace_hash;   // from the child's JSON; empty when it wrote none
  std::string preemptions;  // from the child's JSON (a number); empty when it wrote none
  std::string preemptions_before_shrink;  // likewise
  std::string failure_signature;          // likewise: the same for the same failure (distinct_failures.h)
  std::string report;                     // the child's stderr
  // A bounded search's process (from its JSON): the schedules it ran, whether
  // it ran all of them, and the command that replays its failing schedule.
  std::string schedules;
  bool exhausted = false;
  std::string replay;
  std::string unreduced_by;             // the library that kept partial-order reduction off, if any
  std::uint64_t pct_choice_points = 0;  // the estimate the seed was given (0: none), for its replay line
};

// Classifies a reaped child. `timed_out` when sim-run killed it for outliving
// --timeout `timeout_text` seconds. Reads (and does not delete) its files.
Outcome ClassifyExit(const LaunchSpec& spec, std::uint64_t seed, int wait_status, bool timed_out,
                     const std::string& timeout_text);

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_CHILD_H_
