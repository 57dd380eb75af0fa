// determinism_check.cpp: run, replay, compare traces (see the header).
#include "determinism_check.h"

#include "crash_guard.h"
#include "schedule.h"

namespace sim::internal {
namespace {

std::string Describe(SiteNamer& namer, const Event& event) {
  return "T" + std::to_string(event.thread) + " " + EventKindName(event.kind) + " " + namer.Name(event.site);
}

bool SameEvent(const Event& a, const Event& b) {
  return a.thread == b.thread && a.kind == b.kind && a.site.Hash() == b.site.Hash();
}

}  // namespace

Outcome RunTwiceAndCompare(const std::function<void()>& body, const Options& options, Strategy& strategy,
                           std::uint64_t seed, const std::function<void()>& before_first_run) {
  World first_world(options, strategy, seed);
  before_first_run();
  first_world.KeepWholeTrace();
  Outcome first = first_world.Run(body);
  if (first.process_suspect) {
    // Not replayed: the process may not be fit for another execution.
    CrashGuard::AfterCrash();
    first_world.DescribeFailure(first);
    return first;
  }
  if (first.verdict == Verdict::kCrash) CrashGuard::AfterCrash();

  std::unique_ptr<Strategy> replay = MakeReplayStrategy(EncodeSchedule(first.decisions()));
  World second_world(options, *replay, seed);
  second_world.KeepWholeTrace();
  Outcome second = second_world.Run(body);
  if (second.verdict == Verdict::kCrash) CrashGuard::AfterCrash();
  if (second.schedule_mismatch.empty() && second.trace_hash == first.trace_hash && second.verdict == first.verdict) {
    return first;
  }

  const std::vector<Event>& a = first_world.whole_trace();
  const std::vector<Event>& b = second_world.whole_trace();
  std::size_t step = 0;
  while (step < a.size() && step < b.size() && SameEvent(a[step], b[step])) ++step;
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
  first_world.DescribeFailure(nondeterministic);
  return nondeterministic;
}

}  // namespace sim::internal
