// search_across_processes.h: a bounded search (dfs:P) over a whole program,
// one schedule per process.
//
// A whole program runs main once per process, so the search cannot move
// from one schedule to the next inside it, as dfs:P does in explore().
// With SIM_OPTIONS=strategy=dfs:P (sim-run --strategy dfs:P starts one such
// process), the process runs no schedule itself: it drives the search
// (strategy/bounded_search.h), running each schedule's prefix as a
// candidate (rerun.h: a fork of a copy of the program that has done static
// initialisation) and recording the choice points it reports. It ends with
// "no failure in any schedule with <= P preemptions: N schedules" on
// stderr, or with the first failing schedule shrunk and told as any
// whole-program failure, its replay line naming the schedule.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_SEARCH_ACROSS_PROCESSES_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_SEARCH_ACROSS_PROCESSES_H_

#include <cstdint>

#include "explore/options.h"
#include "sim/sim.h"

namespace sim::internal {

// Runs the search for `options.strategy` (dfs:P), at most options.seeds
// schedules, each killed after internal.schedule_timeout_ms (and the count
// so far written to internal.progress_file now and then); returns this
// process's exit status (0 when no schedule failed, the failing schedule's
// as a whole program's otherwise).
int SearchSchedulesAcrossProcesses(char** argv, const sim::Options& options, const InternalOptions& internal);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_SEARCH_ACROSS_PROCESSES_H_
