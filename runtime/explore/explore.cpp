// explore.cpp: the driver: one world per seed until one fails.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "core/thread_local_switch.h"
#include "core/uninstrumented_library.h"
#include "core/world.h"
#include "explore/crash_guard.h"
#include "explore/determinism_check.h"
#include "explore/explore_internal.h"
#include "explore/isolated_execution.h"
#include "explore/options.h"
#include "explore/race_matters.h"
#include "explore/replay_command.h"
#include "explore/run_execution.h"
#include "explore/schedule_diff.h"
#include "explore/shrink.h"
#include "report/report_json.h"
#include "strategy/race_flip.h"
#include "strategy/schedule.h"

namespace sim {
namespace internal {

std::string LibraryKeepingReductionOff(const Options& options) {
  return options.por != 0 ? FirstUninstrumentedLibrary() : "";
}

void SayBoundedSearchPassed(const Options& options, std::uint64_t schedules, bool exhausted, const char* schedule_cap) {
  const std::string& strategy = options.strategy;
  if (exhausted) {
    std::fprintf(stderr, "simthread: %s: no failure in any schedule with <= %s preemptions: %llu schedules\n",
                 strategy.c_str(), strategy.substr(4).c_str(), static_cast<unsigned long long>(schedules));
  } else {
    std::fprintf(stderr,
                 "simthread: %s: stopped after %llu schedules without a failure, before trying them all; raise %s "
                 "to finish the search\n",
                 strategy.c_str(), static_cast<unsigned long long>(schedules), schedule_cap);
  }
  if (const std::string library = LibraryKeepingReductionOff(options); !library.empty()) {
    std::fprintf(stderr,
                 "simthread: %s: every order of steps was run, without partial-order reduction: %s was not built "
                 "with sim-clang++, and what its code shares between threads between two scheduling points cannot "
                 "be seen\n",
                 strategy.c_str(), library.c_str());
  }
}

Report MakeReport(Outcome outcome, std::uint64_t seed, std::uint64_t seeds_passed, const Options& options) {
  Report report;
  report.seed = seed;
  report.seeds_passed = seeds_passed;
  report.verdict = outcome.verdict;
  report.message = std::move(outcome.message);
  report.schedule = internal::EncodeSchedule(outcome.decisions());
  report.trace_hash = outcome.trace_hash;
  report.step = outcome.steps;
  report.preemptions = outcome.preemptions;
  report.preemptions_before_shrink = outcome.preemptions;
  report.story = std::move(outcome.story);
  report.threads = std::move(outcome.threads);
  report.last_events = std::move(outcome.last_events);
  report.events_left_out = outcome.events_left_out;
  report.replay = ReplayCommand(options, seed);
  report.strategy = options.strategy;
  report.failure_signature = outcome.failure_signature;
  return report;
}

}  // namespace internal

std::optional<Report> explore(std::function<void()> body, const Options& given) {
  if (internal::current_world != nullptr) {
    throw std::logic_error("sim::explore: called inside a world; worlds do not nest");
  }
  Options options = given;
  internal::ApplyEnvironmentOptions(options);
  return internal::ExploreWithOptions(std::move(body), options);
}

namespace internal {
namespace {

void CheckExploreOptions(const Options& options) {
  if (options.seeds == 0) throw std::invalid_argument("sim::explore: seeds must be at least 1");
  if (options.stack_size < 16384) {
    throw std::invalid_argument("SIM_OPTIONS: option 'stack_size' must be at least 16384 bytes");
  }
}

void WarnThreadsLeftRunning(std::uint64_t seed, std::uint64_t threads) {
  std::fprintf(stderr,
               "simthread: seed %llu passed with %llu thread(s) still running (detached, or kept by a library "
               "for the whole process): a later execution in this process that waits for one waits in vain; "
               "isolate=fork runs executions in worker processes, a new one after such a seed\n",
               static_cast<unsigned long long>(seed), static_cast<unsigned long long>(threads));
}

// The report of the failing `seed`, the `index`th explored: shrunk, diffed
// against the first seed when one passed before it, and written as JSON.
Report ReportFailure(const std::function<void()>& body, const Options& options, const Strategy& strategy,
                     std::uint64_t seed, std::uint64_t index, const Outcome& outcome) {
  // The replay command runs this seed alone: with what the strategy
  // carried into it from earlier seeds (pct's estimate), if anything.
  Options reported = options;
  reported.strategy = strategy.ReplaySpec(options.strategy);
  // The report tells the shrunk execution; replaying the seed shrinks
  // to the same one, so both replays print the same report.
  ShrinkResult shrunk = ShrinkFailure(body, options, seed, outcome);
  const std::string diff =
      options.diff != 0 && index > 0 ? DiffAgainstPassingSeed(body, options, options.first_seed, shrunk.outcome) : "";
  RaceFlipped flipped;
  if (shrunk.outcome.verdict == Verdict::kDataRace && options.race_flips != 0) {
    flipped = TellWhetherRaceMatters(
        shrunk.outcome.race_to_flip, options.race_flips,
        [&](std::optional<std::uint64_t> flip_continuation) -> std::optional<Outcome> {
          std::unique_ptr<Strategy> strategy =
              flip_continuation
                  ? MakeRaceFlipStrategy(shrunk.outcome.anchored, shrunk.outcome.race_to_flip, *flip_continuation)
                  : MakeAnchoredReplayStrategy(shrunk.outcome.anchored);
          return RunExecution(body, FlipOptions(options), *strategy, seed);
        },
        [&](const std::string& schedule) { return FlippedReplayCommand(options, schedule, seed); });
  }
  Report report = MakeReport(std::move(shrunk.outcome), seed, index, reported);
  report.race_flipped = std::move(flipped.line);
  report.race_flipped_schedule = std::move(flipped.schedule);
  report.race_flipped_replay = std::move(flipped.replay);
  report.diff = diff;
  report.preemptions_before_shrink = shrunk.preemptions_before;
  report.shrink_candidates = shrunk.candidates;
  report.minimum_at_least = shrunk.minimum_at_least;
  report.shrink_stopped = ShrinkStopNote(shrunk.stop, shrunk.candidates, options);
  if (!options.report_json.empty())
    WriteJsonFile(options.report_json, ReportJson(report, ChosenTlsSwitchName(options.tls_switch)));
  return report;
}

// Every seed passed, or a bounded search ran out of schedules.
void ReportNoFailure(const Options& options, const Strategy& strategy) {
  if (options.strategy.starts_with("dfs:") && !strategy.Exhausted()) {
    SayBoundedSearchPassed(options, strategy.SchedulesRun(), /*exhausted=*/false, "seeds");
  }
  if (!options.report_json.empty()) {
    WriteJsonFile(options.report_json,
                  PassJson(options.first_seed, options.seeds, ChosenTlsSwitchName(options.tls_switch)));
  }
}

}  // namespace

std::optional<Report> ExploreWithOptions(std::function<void()> body, const Options& given,
                                         const ExecutionObserver& observe, const ReplayAroundSeed& replay_around_seed) {
  if (current_world != nullptr) {
    throw std::logic_error("sim::explore: called inside a world; worlds do not nest");
  }
  Options options = given;
  ResolveIsolation(options, "none");
  ReadSelfChecksFromEnvironment();
  CheckExploreOptions(options);
  std::unique_ptr<Strategy> strategy = MakeStrategy(options.strategy, options.pct_choice_points);
  const ReplayAroundSeed replay_around = replay_around_seed ? replay_around_seed : ReplayCommandAroundSeed;
  auto [replay_before_seed, replay_after_seed] = replay_around(options);
  CrashGuard crash_guard(std::move(replay_before_seed), std::move(replay_after_seed), options.report_json);
  std::string crash_replay_spec = options.strategy;  // the strategy the crash guard's replay command names
  // The short crash report is written from a signal handler with the
  // command prepared here, once the strategy has begun a seed: it must carry
  // what the strategy brought into this seed (pct's estimate), as a
  // failure's report does.
  const std::function<void()> prepare_crash_replay = [&] {
    if (std::string spec = strategy->ReplaySpec(options.strategy); spec != crash_replay_spec) {
      Options replayed = options;
      replayed.strategy = spec;
      const auto [before, after] = replay_around(replayed);
      CrashGuard::SetReplayCommand(before, after);
      crash_replay_spec = std::move(spec);
    }
  };

  // Described where the world is: in one process a fault is reported as
  // found (shrinking replays it only under isolate=fork). One execution (a
  // replay) gets a timeline when it passes too; a failure gets one from
  // ShrinkFailure.
  Telling telling{.describe = Telling::Describe::kIfFault,
                  .timeline = options.seeds == 1 ? options.timeline : "",
                  .timeline_when = Telling::TimelineWhen::kIfPassed};
  telling.before_run = prepare_crash_replay;
  ExecutionRunner seed_runner(options, strategy.get(), [&](Strategy* deciding, std::string_view request) {
    const std::uint64_t seed = SeedOfRequest(request);
    CrashGuard::SetSeed(seed);  // again: this may be a worker process, forked before the seed was set
    return RunInWorld(body, options, *deciding, seed, telling);
  });
  bool warned_left_running = false;
  for (std::uint64_t index = 0; index < options.seeds; ++index) {
    const std::uint64_t seed = options.first_seed + index;
    Outcome outcome;
    CrashGuard::SetSeed(seed);
    if (options.check_determinism != 0) {
      outcome = RunTwiceAndCompare(body, options, *strategy, seed, prepare_crash_replay);
    } else {
      outcome = seed_runner.Run(SeedRequest(seed));
    }
    if (!outcome.schedule_mismatch.empty()) {
      throw std::runtime_error("sim::explore: the replayed schedule does not fit this program: " +
                               outcome.schedule_mismatch);
    }
    if (outcome.verdict == Verdict::kPass && outcome.threads_left_running > 0 && !Isolated(options) &&
        !warned_left_running) {
      warned_left_running = true;
      WarnThreadsLeftRunning(seed, outcome.threads_left_running);
    }
    if (observe) observe(seed, outcome);
    if (outcome.verdict == Verdict::kPass && strategy->Exhausted()) {
      SayBoundedSearchPassed(options, strategy->SchedulesRun(), /*exhausted=*/true, "seeds");
      break;
    }
    if (outcome.verdict == Verdict::kPass) {
      World::RecycleOutcome(std::move(outcome));
      continue;
    }
    return ReportFailure(body, options, *strategy, seed, index, outcome);
  }
  ReportNoFailure(options, *strategy);
  return std::nullopt;
}

}  // namespace internal

void fail(std::string_view message) {
  if (internal::InWorld() && internal::current_world != nullptr) {
    internal::World& world = *internal::current_world;
    world.EndExecution(Verdict::kFailure, std::string(message) + " (in T" + std::to_string(world.running().id) + ")");
  }
  std::fprintf(stderr, "simthread: sim::fail outside a world: %.*s\n", static_cast<int>(message.size()),
               message.data());
  std::abort();
}

bool active() { return internal::InWorld(); }

}  // namespace sim
