// shrink.cpp: preemption removal by lenient replay (see shrink.h).
#include "explore/shrink.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "explore/isolated_execution.h"
#include "explore/near_schedules.h"
#include "explore/run_execution.h"
#include "strategy/schedule.h"

namespace sim::internal {
namespace {

// The shrunk schedule's execution, told in full (and its timeline written).
Outcome ReplayTold(const std::function<void()>& body, const Options& options, std::uint64_t seed,
                   std::vector<AnchoredDecision> decisions) {
  std::unique_ptr<Strategy> strategy = MakeAnchoredReplayStrategy(std::move(decisions));
  return RunExecution(body, options, *strategy, seed,
                      {.whole_trace = true, .describe = Telling::Describe::kIfFailed, .timeline = options.timeline});
}

}  // namespace

bool SameFailure(const Outcome& candidate, const Outcome& failing) {
  return candidate.verdict == failing.verdict && candidate.failure_signature == failing.failure_signature;
}

std::uint64_t PreemptionsIn(const std::vector<AnchoredDecision>& decisions) {
  std::uint64_t count = 0;
  for (const AnchoredDecision& decision : decisions) count += decision.preemption;
  return count;
}

ShrinkBudget::ShrinkBudget(const Options& options, std::uint64_t default_candidates)
    : candidates_(options.shrink_candidates != 0 ? options.shrink_candidates : default_candidates),
      deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(options.shrink_budget_ms)) {}

bool ShrinkBudget::Take(ShrinkResult& result) {
  if (result.candidates >= candidates_) {
    result.stop = ShrinkStop::kCandidateBound;
    return false;
  }
  if (std::chrono::steady_clock::now() >= deadline_) {
    result.stop = ShrinkStop::kTimeCap;
    return false;
  }
  ++result.candidates;
  return true;
}

std::string ShrinkStopNote(ShrinkStop stop, std::uint64_t candidates, const Options& options) {
  switch (stop) {
    case ShrinkStop::kDone: return "";
    case ShrinkStop::kCandidateBound:
      return "shrinking stopped at its bound of " + std::to_string(candidates) +
             " candidates (shrink_candidates); a higher bound may find fewer preemptions";
    case ShrinkStop::kScheduleTooLong:
      return "not shrunk: the schedule is longer than one environment variable holds (128 KiB), so no candidate "
             "process could run it; the failure is reported as found";
    case ShrinkStop::kTimeCap:
      return "shrinking stopped by the time cap (shrink_budget_ms=" + std::to_string(options.shrink_budget_ms) +
             ") after " + std::to_string(candidates) + " candidates; the result depends on machine speed";
  }
  return "";
}

Options CandidateOptions(const Options& options, const Outcome& failing) {
  Options candidate = options;
  if (failing.verdict == Verdict::kStepLimit || failing.verdict == Verdict::kLivelock) return candidate;
  constexpr std::uint64_t kStepsPerFailingStep = 8;
  constexpr std::uint64_t kFewestSteps = 10000;
  candidate.max_steps = std::min(options.max_steps, std::max(kStepsPerFailingStep * failing.steps, kFewestSteps));
  return candidate;
}

Outcome RemovePreemptions(const Outcome& failing, ShrinkBudget& budget, const ReplayAnchored& replay,
                          ShrinkResult& result) {
  Outcome kept = failing;
  const std::vector<AnchoredDecision>& best = kept.anchored;
  // Removes the preemptions at `at`; true, with `kept` the execution that
  // candidate ran, when it failed the same way with fewer preemptions.
  auto try_removing = [&](const std::vector<std::size_t>& at) {
    std::vector<AnchoredDecision> candidate = best;
    for (std::size_t i : at) {
      candidate[i].preemption = false;
      candidate[i].deferred = true;  // the switch waits until the preempted thread stops by itself
    }
    Outcome outcome = replay(candidate);
    if (!SameFailure(outcome, failing) || outcome.preemptions >= kept.preemptions) return false;
    kept = std::move(outcome);
    return true;
  };
  // As delta debugging does: all of them at once, then in `chunks` parts
  // (last first), doubling the parts after a round that removes none, down
  // to one preemption at a time. A race or a bug that needs none or few of
  // the preemptions a seed made is reached in a few candidates rather than
  // one per preemption.
  for (std::size_t chunks = 1;;) {
    std::vector<std::size_t> preempting;
    for (std::size_t i = 0; i < best.size(); ++i) {
      if (best[i].preemption) preempting.push_back(i);
    }
    if (preempting.empty()) return kept;
    chunks = std::min(chunks, preempting.size());
    bool removed = false;
    for (std::size_t chunk = chunks; chunk-- > 0 && !removed;) {
      const std::size_t begin = preempting.size() * chunk / chunks;
      const std::size_t end = preempting.size() * (chunk + 1) / chunks;
      if (!budget.Take(result)) return kept;
      removed = try_removing(std::vector<std::size_t>(preempting.begin() + begin, preempting.begin() + end));
    }
    if (removed) {
      chunks = std::max<std::size_t>(chunks / 2, 1);
    } else if (chunks == preempting.size()) {
      return kept;  // no single preemption can go
    } else {
      chunks *= 2;
    }
  }
}

ShrinkResult ShrinkFailure(const std::function<void()>& body, const Options& given, std::uint64_t seed,
                           const Outcome& failing) {
  const Options options = CandidateOptions(given, failing);
  ShrinkResult result;
  result.preemptions_before = failing.preemptions;
  std::vector<AnchoredDecision> best = failing.anchored;
  std::uint64_t best_preemptions = failing.preemptions;

  // A fault may leave the process unfit for more executions (crash_guard.h):
  // report it as found, without replaying it, unless each execution has a
  // process of its own (isolate=fork) and the execution's process said how
  // it failed (one that died without a word left no decisions to shrink).
  // (abort() and a failed assert() do not: they are shrunk like any failure.)
  // A nondeterministic program cannot be shrunk by replaying it.
  const bool fault_unfit_to_replay = failing.process_suspect && (!Isolated(options) || failing.anchored.empty());
  if (fault_unfit_to_replay || failing.verdict == Verdict::kNondeterministic) {
    if (!options.timeline.empty()) {
      std::fprintf(stderr,
                   "simthread: no timeline written to %s: a fault is reported as found, without the replay "
                   "that records a timeline\n",
                   options.timeline.c_str());
    }
    result.outcome = failing;
    return result;
  }
  ShrinkBudget budget(options, kShrinkReplaysInProcess);
  // Candidates run one after another, in worker processes under
  // isolate=fork (isolated_execution.h).
  ExecutionRunner candidates(options, nullptr, [&](Strategy*, std::string_view request) {
    std::unique_ptr<Strategy> strategy = MakeAnchoredReplayStrategy(DecodeAnchored(std::string(request)));
    return RunInWorld(body, options, *strategy, seed);
  });
  const ReplayAnchored replay = [&](const std::vector<AnchoredDecision>& candidate) {
    return candidates.Run(EncodeAnchored(candidate));
  };
  Outcome greedy = failing;  // what greedy removal kept, where the near phase starts
  if (options.shrink != 0) {
    greedy = RemovePreemptions(failing, budget, replay, result);
    best = greedy.anchored;
    best_preemptions = PreemptionsIn(best);
  }

  // Greedy removal stops at a schedule no single removal improves, which
  // need not be the fewest preemptions: the few the bug needs may sit
  // elsewhere. Bounded exhaustive search from 0 preemptions upwards finds
  // the fewest, when the budget allows; where a bound runs long without
  // one, it takes turns with the near phase (near_schedules.h: they often
  // sit close to those greedy left).
  std::uint64_t searched_below = 0;  // every schedule with fewer preemptions was tried, and none failed so
  NearTurns near(greedy, failing);
  for (std::uint32_t bound = 0; options.shrink != 0 && bound < best_preemptions && result.stop == ShrinkStop::kDone;
       ++bound) {
    std::unique_ptr<Strategy> dfs = MakeDfsStrategy(bound);
    ExecutionRunner schedules(options, dfs.get(), [&](Strategy* deciding, std::string_view) {
      return RunInWorld(body, options, *deciding, seed);
    });
    for (std::uint64_t run = 0; !dfs->Exhausted(); ++run) {
      const NearTurns::Turn turn = near.Take(run, best_preemptions, budget, result, replay);
      if (turn == NearTurns::Turn::kBudgetSpent) break;
      if (turn == NearTurns::Turn::kFewerPreemptions) {
        best_preemptions = near.kept().preemptions;
        best = near.kept().anchored;
        if (best_preemptions <= bound) break;
      }
      if (!budget.Take(result)) break;
      Outcome outcome = schedules.Run("");
      if (!outcome.schedule_mismatch.empty()) break;  // the program is not deterministic: keep the greedy result
      if (SameFailure(outcome, failing) && outcome.preemptions < best_preemptions) {
        best = std::move(outcome.anchored);
        best_preemptions = outcome.preemptions;
        break;
      }
    }
    if (dfs->Exhausted() && searched_below == bound) searched_below = bound + 1;
  }
  if (options.shrink != 0) result.minimum_at_least = MinimumAtLeast(searched_below, best_preemptions);

  result.outcome = ReplayTold(body, options, seed, best);
  if (!SameFailure(result.outcome, failing)) {
    // Invariant: `best` was kept because it failed the same way, and replay
    // is deterministic; report the failure as found rather than a story
    // that does not match it.
    result.outcome = failing;
  }
  return result;
}

}  // namespace sim::internal
