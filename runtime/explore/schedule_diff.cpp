// schedule_diff.cpp: rerun the passing seed, compare traces event by event.
#include "explore/schedule_diff.h"

#include "explore/run_execution.h"

namespace sim::internal {

std::string DiffAgainstPassingSeed(const std::function<void()>& body, const Options& options,
                                   std::uint64_t passing_seed, const Outcome& failing) {
  if (failing.events.empty()) return "";
  // A fresh strategy: pct learns across executions, so this reruns the seed
  // as the first execution of an explore() call would.
  std::unique_ptr<Strategy> strategy = MakeStrategy(options.strategy, options.pct_choice_points);
  const Outcome passing = RunExecution(body, options, *strategy, passing_seed, {.events_in_outcome = true});
  if (passing.verdict != Verdict::kPass) return "";

  const std::vector<Event>& good = passing.events;
  const std::vector<Event>& bad = failing.events;
  const std::size_t at = FirstDivergence(good, bad);
  if (at == good.size() && at == bad.size()) return "";
  SiteNamer namer;
  auto side = [&namer](const std::vector<Event>& events, std::size_t index) -> std::string {
    if (index >= events.size()) return "had ended";
    const Event& event = events[index];
    namer.Add(event.site);
    return "ran T" + std::to_string(event.thread) + " " + EventKindName(event.kind) + " " + namer.Name(event.site);
  };
  const std::string passing_side = side(good, at);
  const std::string failing_side = side(bad, at);
  return "departs from passing seed " + std::to_string(passing_seed) + " at event " + std::to_string(at) +
         ": the passing run " + passing_side + ", the failing run " + failing_side;
}

}  // namespace sim::internal
