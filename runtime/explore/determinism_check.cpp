// determinism_check.cpp: run, replay, compare traces (see the header).
#include "explore/determinism_check.h"

#include "explore/run_execution.h"
#include "strategy/schedule.h"

namespace sim::internal {
namespace {

std::string Describe(SiteNamer& namer, const Event& event) {
  return "T" + std::to_string(event.thread) + " " + EventKindName(event.kind) + " " + namer.Name(event.site);
}

}  // namespace

Outcome RunTwiceAndCompare(const std::function<void()>& body, const Options& options, Strategy& strategy,
                           std::uint64_t seed, const std::function<void()>& before_first_run) {
  // Each run may be in a process of its own (isolate=fork), so what is
  // compared travels in the outcome: the whole trace.
  Telling keeping_trace{.events_in_outcome = true, .describe = Telling::Describe::kIfFault};
  keeping_trace.before_run = before_first_run;
  Outcome first = RunExecution(body, options, strategy, seed, keeping_trace);
  // Not replayed: the process may not be fit for another execution.
  if (first.process_suspect) return first;

  const std::string schedule = EncodeSchedule(first.decisions());
  std::unique_ptr<Strategy> replay = MakeReplayStrategy(schedule);
  keeping_trace.before_run = nullptr;
  Outcome second = RunExecution(body, options, *replay, seed, keeping_trace);
  if (second.schedule_mismatch.empty() && second.trace_hash == first.trace_hash && second.verdict == first.verdict) {
    first.events.clear();  // kept for the comparison only
    return first;
  }

  const std::vector<Event>& a = first.events;
  const std::vector<Event>& b = second.events;
  const std::size_t step = FirstDivergence(a, b);
  SiteNamer namer;
  if (step < a.size()) namer.Add(a[step].site);
  if (step < b.size()) namer.Add(b[step].site);
  std::string first_side = step < a.size() ? Describe(namer, a[step]) : "ended";
  std::string second_side = step < b.size() ? Describe(namer, b[step]) : "ended";

  Outcome nondeterministic = std::move(first);
  nondeterministic.verdict = Verdict::kNondeterministic;
  nondeterministic.schedule_mismatch.clear();
  nondeterministic.message =
      "the same schedule gave a different execution: at event " + std::to_string(step) + " the first run did " +
      first_side + ", the replay did " + second_side +
      ". Something outside the world decides the path: the real clock or CPU counters read around the "
      "interceptors, std::random_device, iteration over addresses (pointer-keyed containers), or "
      "uninitialised memory";
  // The threads and the story, from a third run of the first's schedule
  // (the first's world may be gone with its process; describing every first
  // run would symbolize every passing seed).
  std::unique_ptr<Strategy> retell = MakeReplayStrategy(schedule);
  Outcome described =
      RunExecution(body, options, *retell, seed, {.whole_trace = true, .describe = Telling::Describe::kAlways});
  nondeterministic.threads = std::move(described.threads);
  nondeterministic.last_events = std::move(described.last_events);
  nondeterministic.events_left_out = described.events_left_out;
  nondeterministic.story = std::move(described.story);
  return nondeterministic;
}

}  // namespace sim::internal
