// start_main.cpp: whole-program mode. Linked (whole-archive) into a program
// by sim-clang++, this runs `main` as T0 in a world when SIM_OPTIONS is set,
// and leaves the program alone otherwise.
//
// It defines __libc_start_main in the executable, which _start calls, and
// wraps `main`: static initialisation has run normally on the real main
// thread before the world starts, and exit() after it ends runs atexit
// handlers and static destructors on real threads as usual. T0 runs on the
// main thread's own TCB, so thread-local state set up before main stays.
//
// Under sim-run the process may first be a fork server (fork_server.h):
// static initialisation once, then a forked child per seed that goes on
// from the main wrapper as a fresh process would.
//
// Exit status: the program's own on a pass (or when it returns non-zero);
// sim::exit_status::kVerdict for a verdict the runtime detected; for a crash,
// the report is printed and the process dies by the original signal.
#include <signal.h>
#include <sys/personality.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "common/exit_status.h"
#include "core/runtime_code.h"
#include "core/symbolizer.h"
#include "core/thread_control_block.h"
#include "core/thread_local_census.h"
#include "core/thread_local_switch.h"
#include "core/world.h"
#include "explore/crash_guard.h"
#include "explore/explore_internal.h"
#include "explore/options.h"
#include "explore/race_matters.h"
#include "explore/replay_command.h"
#include "explore/run_execution.h"
#include "explore/shrink.h"
#include "interceptors/real_function.h"
#include "report/report_json.h"
#include "strategy/race_flip.h"
#include "strategy/recording.h"
#include "strategy/schedule.h"
#include "whole_program/candidate_server.h"
#include "whole_program/fork_server.h"
#include "whole_program/known_failures.h"
#include "whole_program/libc_crash.h"
#include "whole_program/rerun.h"
#include "whole_program/search_across_processes.h"

using namespace sim::internal;

namespace {

constexpr const char* kAslrReexecMarker = "SIM_ASLR_DISABLED";

// Threads besides main that most programs under test run at once (the
// examples and bench/bugs/ run 2-4); a program that runs more creates the
// rest's donors as it goes.
constexpr std::size_t kDonorsAhead = 4;

using MainFunction = int (*)(int, char**, char**);
MainFunction program_main = nullptr;

// Address-ordered containers (std::set<T*>, unordered_map of pointers)
// iterate differently under ASLR; without it, the same seed takes the same
// path through them. Re-exec once with randomisation off; where that is
// not allowed (a seccomp profile), run on, since schedules never depend on
// addresses.
void DisableAslrByReexec(char** argv) {
  if (std::getenv(kAslrReexecMarker) != nullptr) return;
  const int current = personality(0xffffffff);
  if (current == -1 || (current & ADDR_NO_RANDOMIZE) != 0) return;
  if (personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1) return;
  setenv(kAslrReexecMarker, "1", 1);
  execv("/proc/self/exe", argv);
  unsetenv(kAslrReexecMarker);  // exec failed: go on with ASLR
}

// Reads SIM_OPTIONS for one seed of a whole program. Returns false, having
// said why, when they cannot be used.
bool ReadWholeProgramOptions(sim::Options& options, InternalOptions& internal) {
  // seeds=N bounds a bounded search's schedules (unbounded by default);
  // otherwise a process runs one seed.
  constexpr std::uint64_t kSeedsNotGiven = 0;
  options.seeds = kSeedsNotGiven;
  try {
    ApplyEnvironmentOptions(options, &internal);
    const bool bounded_search = options.strategy.starts_with("dfs:");
    if (options.seeds == kSeedsNotGiven) {
      options.seeds = bounded_search ? UINT64_MAX : 1;
    } else if (options.seeds != 1 && !bounded_search) {
      throw std::invalid_argument(
          "SIM_OPTIONS: whole-program mode runs one seed per process; explore many with "
          "`sim-run --seeds N -- PROG`");
    }
    if (internal.fork_server != 0) {
      throw std::invalid_argument(
          "SIM_OPTIONS: fork_server is sim-run's and must stand alone (fork_server=<fd>); remove it to run "
          "one seed");
    }
    (void)MakeStrategy(options.strategy, options.pct_choice_points);
    if (!internal.anchored.empty()) (void)DecodeAnchored(internal.anchored);
    if (!internal.race_flip.empty()) (void)DecodeRaceToFlip(internal.race_flip);
    RaceFlipped told;
    if (!internal.race_flip_told.empty() && !DecodeRaceFlipped(internal.race_flip_told, told)) {
      throw std::invalid_argument("SIM_OPTIONS: option 'race_flip_told' is internal (<hex>.<hex>), got '" +
                                  internal.race_flip_told + "'");
    }
    std::uint64_t candidates = 0;
    ShrinkStop stop = ShrinkStop::kDone;
    if (!internal.outcome_shrink.empty() && !DecodeShrinkProgress(internal.outcome_shrink, candidates, stop)) {
      throw std::invalid_argument(
          "SIM_OPTIONS: option 'outcome_shrink' is internal (<candidates>:done|bound|time), "
          "got '" +
          internal.outcome_shrink + "'");
    }
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "simthread: %s\n", error.what());
    return false;
  }
  return true;
}

// What this process's one execution is for, which decides what it keeps.
enum class RunKind {
  // The seed's own run: its last events, described if it fails, and no
  // decisions, so that its memory does not grow with its length; a failure
  // is recorded and told by candidates (ReportSeed).
  kSeed,
  // A candidate (rerun.h): every decision, for the process that ran it.
  kCandidate,
  // The candidate whose report is printed: every decision and every event,
  // for the story.
  kToldCandidate,
};

// Set while T0 runs the program's exit handlers in the world.
bool exiting_in_world = false;

// Registered before static initialisation, so that exit() calls it after
// the handlers and static destructors the executable registers, and before
// those of the libraries loaded ahead of it: in the world, after main
// returned, it is where the process would end; the execution passes here.
void EndOfExecutablesExitHandlers(int, void*) {
  if (exiting_in_world && InWorld()) current_world->EndExecution(sim::Verdict::kPass, "");
}

// main returned while other threads still run, or ran detached: natively
// they go on while exit() runs the atexit and on_exit handlers and the
// static destructors, and each may race with them (nothing joined them) or
// find an object destroyed. So T0 runs them in the world, up to
// EndOfExecutablesExitHandlers, and the scheduler interleaves the others
// with them. That first exit() never returns; the process's own later one
// (after the report) runs the handlers left: the libraries'.
[[noreturn]] void ExitWhileThreadsRun(int exit_status) {
  exiting_in_world = true;
  std::exit(exit_status);
}

// Runs main as T0 of the seed's world, on this thread's own TCB, and sets
// `exit_status` to what main returned.
Outcome RunMain(int argc, char** argv, char** envp, const sim::Options& options, Strategy& deciding, RunKind kind,
                const std::function<bool(const Outcome&)>& tells_failure,
                const std::function<bool(const Outcome&)>& told_by_rerun, int& exit_status) {
  auto [replay_before_seed, replay_after_seed] = ReplayCommandAroundSeed(options);
  CrashGuard crash_guard(std::move(replay_before_seed), std::move(replay_after_seed), options.report_json);
  CrashGuard::SetSeed(options.first_seed);
  ReadSelfChecksFromEnvironment();
  return RunInWorld(
      [&] {
        exit_status = program_main(argc, argv, envp);
        if (static_cast<std::uint64_t>(exit_status) == options.pass_exit_status && current_world->OthersUnjoined())
          ExitWhileThreadsRun(exit_status);
        // The program's own verdict: report it like any failure, with the
        // seed and replay line, but keep its exit status.
        if (static_cast<std::uint64_t>(exit_status) != options.pass_exit_status) {
          std::string message = "main returned " + std::to_string(exit_status);
          if (options.pass_exit_status != 0) {
            message += " (the passing status is " + std::to_string(options.pass_exit_status) + ": pass_exit_status)";
          }
          current_world->EndExecution(sim::Verdict::kFailure, std::move(message));
        }
      },
      options, deciding, options.first_seed,
      {.whole_trace = kind == RunKind::kToldCandidate,
       .keep_decisions = kind != RunKind::kSeed,
       .describe = kind == RunKind::kCandidate ? Telling::Describe::kNever : Telling::Describe::kIfFailed,
       .timeline = options.timeline,
       .timeline_when = Telling::TimelineWhen::kUnlessFault,
       .main_tcb = World::MainTcb::kCallers,
       .tells_failure = tells_failure,
       .told_by_rerun = told_by_rerun});
}

// A shrinking candidate's answer to the process that reran it (rerun.h):
// the outcome, the choices, and with outcome_report the report text.
[[noreturn]] void AnswerRerun(const sim::Options& options, const InternalOptions& internal, const Outcome& outcome,
                              const StrategyRecording& recording, int exit_status) {
  std::string report_text;
  if (internal.outcome_report != 0 && outcome.verdict != sim::Verdict::kPass) {
    // Told as the shrinking process's own report: shrinking was on there.
    sim::Options reported = options;
    reported.shrink = 1;
    sim::Report report = MakeReport(outcome, options.first_seed, 0, reported);
    report.preemptions_before_shrink = internal.outcome_report - 1;
    ShrinkStop stop = ShrinkStop::kDone;
    DecodeShrinkProgress(internal.outcome_shrink, report.shrink_candidates, stop);
    report.shrink_stopped = ShrinkStopNote(stop, report.shrink_candidates, options);
    if (internal.outcome_minimum != 0) report.minimum_at_least = internal.outcome_minimum - 1;
    RaceFlipped flipped;
    if (DecodeRaceFlipped(internal.race_flip_told, flipped)) {
      report.race_flipped = std::move(flipped.line);
      report.race_flipped_schedule = std::move(flipped.schedule);
      report.race_flipped_replay = std::move(flipped.replay);
    }
    if (!options.report_json.empty())
      WriteJsonFile(options.report_json, ReportJson(report, ChosenTlsSwitchName(options.tls_switch)));
    report_text = report.render();
  }
  WriteOutcomeFile(internal.outcome_file, outcome, recording, exit_status, report_text);
  _exit(0);
}

// What rerunning a seed found: the rerun that records its decisions and
// checks it is deterministic, and for a failure, what telling it by
// rerunning gave.
struct SeedRerun {
  std::optional<Outcome> second;
  std::string nondeterminism;  // "" when the rerun did what the seed did
  ToldByRerunning told;
};

// What the rerun of the seed recorded of the same execution, which the
// seed's own run did not keep (and a crash inside libc left it no heap to
// work out): every decision, and where its race is.
void TakeRecorded(Outcome& outcome, const Outcome& rerun) {
  outcome.anchored = rerun.anchored;
  outcome.preemptions = rerun.preemptions;
  outcome.failure_signature = rerun.failure_signature;
  outcome.race_to_flip = rerun.race_to_flip;
}

// Every rerun is a process of its own, so a fault here does not stop the
// determinism check or shrinking, as it does in explore().
SeedRerun RerunSeedAndTell(char** argv, const sim::Options& options, const Outcome& outcome) {
  SeedRerun rerun;
  const bool failed = outcome.verdict != sim::Verdict::kPass;
  if (options.check_determinism == 0 && !failed) return rerun;
  CandidateRunner candidates(argv);  // gone before this process exits
  // The seed's run kept no decisions (RunMainInWorld): a failure has them
  // recorded by running the seed again, which also checks that it is
  // deterministic.
  rerun.second = RerunSeed(candidates, options);
  rerun.nondeterminism = DescribeNondeterminism(outcome, rerun.second);
  // A nondeterministic failure cannot be replayed. (A crash inside libc
  // gets here in a fresh image of the process, ReportLibcCrash, or not at
  // all: without the runtime's own heap its short report ended it.)
  if (failed && rerun.nondeterminism.empty()) {
    Outcome failing = outcome;
    TakeRecorded(failing, *rerun.second);
    rerun.told = ShrinkAndTellByRerunning(candidates, options, failing, ReplayBy::kSeed);
  }
  return rerun;
}

// The seed's verdict, with what rerunning it found, reported and turned
// into this process's exit.
int ReportSeed(const sim::Options& options, Outcome outcome, int exit_status, const SeedRerun& rerun) {
  const ToldByRerunning& told = rerun.told;
  if (!rerun.nondeterminism.empty()) {
    outcome.verdict = sim::Verdict::kNondeterministic;
    outcome.message = rerun.nondeterminism;
  } else if (outcome.verdict != sim::Verdict::kPass) {
    TakeRecorded(outcome, *rerun.second);
  }
  const std::string& told_report = told.report;
  const int signal_number = outcome.signal_number;
  sim::Report report = MakeReport(std::move(outcome), options.first_seed, 0, options);
  // This run kept no decisions, and the rerun that would have recorded them
  // ran another execution: no schedule to show.
  if (report.verdict == sim::Verdict::kNondeterministic) report.schedule.clear();
  // Reported as found: still say when a bound stopped the search.
  report.shrink_candidates = told.candidates;
  report.minimum_at_least = told.minimum_at_least;
  report.shrink_stopped = told.not_told.empty() ? ShrinkStopNote(told.stop, told.candidates, options) : told.not_told;
  // With a told report, its run already wrote the report file (rerun.h).
  if (!options.report_json.empty() && told_report.empty())
    WriteJsonFile(options.report_json, ReportJson(report, ChosenTlsSwitchName(options.tls_switch)));
  if (report.verdict == sim::Verdict::kPass) return exit_status;
  const bool program_failed =
      static_cast<std::uint64_t>(exit_status) != options.pass_exit_status && report.verdict == sim::Verdict::kFailure;

  std::fflush(stdout);
  std::fputs(told_report.empty() ? report.render().c_str() : told_report.c_str(), stderr);
  std::fflush(stderr);
  if (report.verdict == sim::Verdict::kCrash && signal_number != 0) {
    CrashGuard::AfterCrash();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
  }
  // Not exit(): threads the world abandoned may own what static
  // destructors would touch.
  _exit(program_failed ? exit_status : sim::exit_status::kVerdict);
}

// A fresh image of a seed's run that crashed inside libc (libc_crash.h):
// the seed rerun, shrunk and told as any failure, from the crash as found.
int ReportLibcCrash(char** argv, const sim::Options& options, const InternalOptions& internal) {
  std::optional<Outcome> crash = LibcCrashAsFound(internal);
  if (!crash) {
    std::fprintf(stderr,
                 "simthread: SIM_OPTIONS: option 'libc_crash' is internal (<signal>.<hash>.<count>), got '%s'\n",
                 internal.libc_crash.c_str());
    return sim::exit_status::kUsage;
  }
  if (!internal.choice_points_file.empty()) std::ofstream(internal.choice_points_file) << crash->choice_points;
  const SeedRerun rerun = RerunSeedAndTell(argv, options, *crash);
  return ReportSeed(options, std::move(*crash), 0, rerun);
}

int RunMainInWorld(int argc, char** argv, char** envp) {
  sim::Options options;
  InternalOptions internal;  // set when this process is sim-run's or a rerun (rerun.h)
  if (!ReadWholeProgramOptions(options, internal)) return sim::exit_status::kUsage;

  // A shrinking candidate (rerun.h) follows the anchored decisions it was given.
  const bool candidate = !internal.outcome_file.empty();
  if (!candidate && !internal.libc_crash.empty()) return ReportLibcCrash(argv, options, internal);
  if (!candidate && options.strategy.starts_with("dfs:"))
    return SearchSchedulesAcrossProcesses(argv, options, internal);
  StrategyRecording recording;
  std::unique_ptr<Strategy> strategy =
      !internal.race_flip.empty()
          ? MakeRaceFlipStrategy(DecodeAnchored(internal.anchored), DecodeRaceToFlip(internal.race_flip),
                                 internal.race_flip_continuation, &recording.flip_continuation)
      : internal.anchored.empty() ? MakeStrategy(options.strategy, options.pct_choice_points)
                                  : MakeAnchoredReplayStrategy(DecodeAnchored(internal.anchored));
  RecordingStrategy recording_strategy(*strategy, recording, /*keep_choices=*/true,
                                       /*find_reversals=*/internal.race_reversals != 0);
  Strategy& deciding = candidate ? static_cast<Strategy&>(recording_strategy) : *strategy;
  const RunKind kind = !candidate                     ? RunKind::kSeed
                       : internal.outcome_report != 0 ? RunKind::kToldCandidate
                                                      : RunKind::kCandidate;
  if (internal.lent_symbolizer == 2) {
    UseLentSymbolizer(kLentSymbolizerFd);
  } else if (internal.lent_symbolizer == 1) {
    close(kLentSymbolizerFd);
  }
  if (candidate) {
    AnswerLibcCrashes(internal);
  } else if (options.shrink != 0) {
    HandLibcCrashesToAFreshImage(argv);
  }
  // A race another seed of the sweep tells is not described here either.
  bool told_elsewhere = false;
  auto tells_failure = [&](const Outcome& failing) {
    told_elsewhere = kind == RunKind::kSeed && !ClaimsFailure(internal.known_failures, options, failing);
    return !told_elsewhere;
  };
  // A failure is rerun, shrunk and told while its world still stands, and
  // described here only if no rerun could tell it: the told rerun names
  // the frames, with this process's symbolizer warmed up meanwhile.
  std::optional<SeedRerun> rerun;
  std::function<bool(const Outcome&)> told_by_rerun;
  if (kind == RunKind::kSeed) {
    told_by_rerun = [&](const Outcome& failing) {
      if (!failing.schedule_mismatch.empty()) return false;
      rerun = RerunSeedAndTell(argv, options, failing);
      return !rerun->told.report.empty();
    };
  }
  int exit_status = 0;
  Outcome outcome = RunMain(argc, argv, envp, options, deciding, kind, tells_failure, told_by_rerun, exit_status);
  // A candidate's mismatch is its answer (a race's flip that cannot be made).
  if (candidate) AnswerRerun(options, internal, outcome, recording, exit_status);
  if (!outcome.schedule_mismatch.empty()) {
    std::fprintf(stderr, "simthread: the replayed schedule does not fit this program: %s\n",
                 outcome.schedule_mismatch.c_str());
    return sim::exit_status::kUsage;
  }
  if (!internal.choice_points_file.empty()) std::ofstream(internal.choice_points_file) << outcome.choice_points;
  if (told_elsewhere) ReportToldElsewhere(options, outcome);
  if (!rerun) rerun = RerunSeedAndTell(argv, options, outcome);
  return ReportSeed(options, std::move(outcome), exit_status, *rerun);
}

int MainWrapper(int argc, char** argv, char** envp) {
  if (std::getenv("SIM_OPTIONS") == nullptr) return program_main(argc, argv, envp);
  DisableAslrByReexec(argv);
  // Before a fork server would fork, in every process alike (the heap and
  // the mappings stay the same in a spawned seed and a forked one), what
  // every world needs and a fork server's children then share: the TCBs of
  // the first threads, which they lend without creating a thread each, and
  // the thread-local census, which reads the executable's symbol table.
  CreateDonorsAhead(kDonorsAhead);
  CurrentThreadLocalCensus();
  // Under sim-run this process may be a fork server: then only its children
  // get past here, each as if spawned with its seed's SIM_OPTIONS.
  ServeForkRequestsIfAsked();
  return RunMainInWorld(argc, argv, envp);
}

RealFunction<int(MainFunction, int, char**, void (*)(), void (*)(), void (*)(), void*)> real_libc_start_main(
    "__libc_start_main");

}  // namespace

SIM_REGISTER_RUNTIME_CODE(sim_whole_program)

extern "C" int __libc_start_main(MainFunction main, int argc, char** argv, void (*init)(), void (*fini)(),
                                 void (*rtld_fini)(), void* stack_end) {
  program_main = main;
  on_exit(EndOfExecutablesExitHandlers, nullptr);
  return real_libc_start_main(MainWrapper, argc, argv, init, fini, rtld_fini, stack_end);
}
