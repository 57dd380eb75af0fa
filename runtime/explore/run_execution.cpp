// run_execution.cpp: RunInWorld and RunExecution (run_execution.h).
#include "explore/run_execution.h"

#include <cstdio>

#include "explore/crash_guard.h"
#include "explore/isolated_execution.h"
#include "report/timeline.h"

namespace sim::internal {
namespace {

bool ShouldDescribe(Telling::Describe when, const Outcome& outcome) {
  switch (when) {
    case Telling::Describe::kNever: return false;
    case Telling::Describe::kIfFault: return outcome.process_suspect;
    case Telling::Describe::kIfFailed: return outcome.verdict != Verdict::kPass;
    case Telling::Describe::kAlways: return true;
  }
  return false;
}

void MaybeWriteTimeline(const Telling& telling, World& world, const Outcome& outcome, std::uint64_t seed) {
  if (telling.timeline.empty()) return;
  switch (telling.timeline_when) {
    case Telling::TimelineWhen::kAlways: break;
    case Telling::TimelineWhen::kIfPassed:
      if (outcome.verdict != Verdict::kPass) return;
      break;
    case Telling::TimelineWhen::kUnlessFault:
      if (outcome.process_suspect) {
        std::fprintf(stderr, "simthread: no timeline written to %s after a fault\n", telling.timeline.c_str());
        return;
      }
      break;
  }
  WriteTimeline(telling.timeline, world, outcome, seed);
}

}  // namespace

Outcome RunInWorld(const std::function<void()>& body, const Options& options, Strategy& deciding, std::uint64_t seed,
                   const Telling& telling) {
  World world(options, deciding, seed);
  if (telling.before_run) telling.before_run();
  if (telling.whole_trace || telling.events_in_outcome || !telling.timeline.empty()) world.KeepWholeTrace();
  if (!telling.keep_decisions) world.ForgetDecisions();
  Outcome outcome = world.Run(body, telling.main_tcb);
  bool told_by_rerun = false;
  if (ShouldDescribe(telling.describe, outcome) && (!telling.tells_failure || telling.tells_failure(outcome))) {
    if (telling.told_by_rerun) {
      world.AskSymbolizerAhead();
      told_by_rerun = telling.told_by_rerun(outcome);
    }
    if (!told_by_rerun) world.DescribeFailure(outcome);
  }
  if (telling.events_in_outcome) outcome.events = world.whole_trace();
  if (!told_by_rerun) MaybeWriteTimeline(telling, world, outcome, seed);
  return outcome;
}

Outcome RunExecution(const std::function<void()>& body, const Options& options, Strategy& strategy, std::uint64_t seed,
                     const Telling& telling) {
  // A runner for one request: its worker ends when the runner does.
  ExecutionRunner runner(options, &strategy, [&](Strategy* deciding, std::string_view) {
    return RunInWorld(body, options, *deciding, seed, telling);
  });
  return runner.Run("");
}

}  // namespace sim::internal
