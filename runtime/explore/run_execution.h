// run_execution.h: one execution, made, run and told the same way wherever
// it happens.
//
// Every execution goes through the same sequence: make a world for a seed
// over a strategy, keep the trace the caller needs, run the body, describe
// the failure, write a timeline, and recover from a crash. explore()'s seeds,
// shrinking's candidates and its told replay, the diff's passing run, the
// determinism check's runs and main in whole-program mode differ only in
// what they keep and tell, which Telling says.
#ifndef SIM_RUNTIME_EXPLORE_RUN_EXECUTION_H_
#define SIM_RUNTIME_EXPLORE_RUN_EXECUTION_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/world.h"

namespace sim::internal {

// What an execution keeps and tells besides its verdict. Everything a
// caller reads must be in the outcome, since the world may have been in a
// worker process (isolated_execution.h).
struct Telling {
  // Every event, not only the recent ones: for the story of a shrunk run,
  // a timeline, or Outcome::events.
  bool whole_trace = false;
  // Hands every event back in Outcome::events (compared by the diff and the
  // determinism check). Implies whole_trace.
  bool events_in_outcome = false;
  // Every decision in Outcome::anchored (what replaying and shrinking
  // edit). Off only for a whole program's own run (World::ForgetDecisions).
  bool keep_decisions = true;
  // When to describe the threads, the last events and the story.
  enum class Describe { kNever, kIfFault, kIfFailed, kAlways } describe = Describe::kNever;
  // A timeline of the execution to this path (empty: none), when `timeline_when` says.
  std::string timeline = "";
  enum class TimelineWhen { kAlways, kIfPassed, kUnlessFault } timeline_when = TimelineWhen::kAlways;
  // Whose thread control block T0 runs on (the caller's own for main).
  World::MainTcb main_tcb = World::MainTcb::kBorrowed;
  // Called once the world exists, before the body runs.
  std::function<void()> before_run = nullptr;
  // Asked before a failure is described: false when another process tells
  // it (a sweep's earlier seed met the same race), and this one need not
  // name the frames it will not print.
  std::function<bool(const Outcome&)> tells_failure = nullptr;
  // Offered a failure this process tells, before it is described and while
  // its world still stands: true when it was told by rerunning it (a whole
  // program's seed, whose told rerun names the frames), so that this run is
  // neither described nor drawn as a timeline. The world's frames are asked
  // of the symbolizer first (World::AskSymbolizerAhead), to be named by the
  // rerun that tells them.
  std::function<bool(const Outcome&)> told_by_rerun = nullptr;
};

// Runs `body` as T0 of a world for `seed` over `deciding`, in this process.
Outcome RunInWorld(const std::function<void()>& body, const Options& options, Strategy& deciding, std::uint64_t seed,
                   const Telling& telling = {});

// RunInWorld here, or, when Isolated(options), in a child process of its
// own; either way `strategy` ends as if the execution had run here, and a
// crash is recovered from (CrashGuard::AfterCrash).
Outcome RunExecution(const std::function<void()>& body, const Options& options, Strategy& strategy, std::uint64_t seed,
                     const Telling& telling = {});

}  // namespace sim::internal

#endif  // SIM_RUNTIME_EXPLORE_RUN_EXECUTION_H_
