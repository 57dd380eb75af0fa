// isolated_execution.h: executions in this process or in processes of their
// own.
//
// Executions of one explore() or SIM_TEST chunk share a process, and with it
// whatever an execution leaves behind: a thread a library starts once per
// process (leveldb's background compaction, liburcu's call_rcu thread,
// oneTBB's workers) is abandoned when its execution ends, and every later
// execution that waits for it deadlocks or runs without it. Isolated (option
// isolate=fork, SIM_TEST's default), this process never runs an execution:
// a worker forked from it runs the seeds, one after another, until an
// execution fails or leaves a thread running (Outcome::threads_left_running);
// the next seed then gets a new worker, forked from this process's state
// again, so no execution meets a thread an earlier one left. The worker
// sends back each outcome and what the strategy learnt
// (strategy/recording.h), which this process's strategy learns in turn.
// Shrinking's candidates run the same way, in a runner of their own;
// one-off executions (RunExecution in run_execution.h: the shrunk
// schedule's retelling, the diff's passing run, the determinism check's
// runs) each get a process of their own.
#ifndef SIM_RUNTIME_ISOLATED_EXECUTION_H_
#define SIM_RUNTIME_ISOLATED_EXECUTION_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/world.h"

namespace sim::internal {

// Whether options.isolate asks for processes of their own ("fork"), after
// ResolveIsolation.
bool Isolated(const Options& options);

// "auto" becomes `automatic` ("fork" under SIM_TEST, "none" in explore(),
// whose body may fill the caller's variables). Throws std::invalid_argument
// for a value other than auto, fork and none.
void ResolveIsolation(Options& options, const char* automatic);

// Runs the execution `request` describes (the seed loop's: a seed; a
// shrinking candidate's: its decisions) with `deciding`, the strategy the
// runner was given or null, in which case `run` makes its own.
using RunRequest = std::function<Outcome(Strategy* deciding, std::string_view request)>;

// Executions one after another, as many as a caller has: here, or in a
// worker process that runs them until one fails or leaves a thread running
// (and exits), when Isolated(options). The next request then gets a new
// worker, forked from this process's state again.
class ExecutionRunner {
 public:
  // `learner`: the strategy every execution decides with, which ends each
  // as if the execution had run here; null when `run` makes its own.
  ExecutionRunner(const Options& options, Strategy* learner, RunRequest run);
  ~ExecutionRunner();  // ends the worker, if one is alive
  ExecutionRunner(const ExecutionRunner&) = delete;
  ExecutionRunner& operator=(const ExecutionRunner&) = delete;

  // Runs the execution `request` describes, and recovers from its crash
  // (CrashGuard::AfterCrash).
  Outcome Run(std::string_view request);

 private:
  Outcome RunInWorker(std::string_view request);
  void StartWorker();
  void EndWorker();
  [[noreturn]] void ServeRequests(int requests, int replies);

  const Options& options_;
  Strategy* learner_;
  RunRequest run_;
  pid_t worker_ = -1;
  int requests_ = -1;  // to the worker
  int replies_ = -1;   // from the worker: outcomes
};

// A seed as an ExecutionRunner request, and back.
std::string SeedRequest(std::uint64_t seed);
std::uint64_t SeedOfRequest(std::string_view request);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_ISOLATED_EXECUTION_H_
