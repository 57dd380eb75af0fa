// rerun.cpp: candidate processes for whole-program shrinking (see rerun.h).
#include "whole_program/rerun.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/hex_text.h"
#include "core/symbolizer.h"
#include "explore/near_schedules.h"
#include "explore/race_matters.h"
#include "explore/shrink.h"
#include "strategy/race_flip.h"
#include "strategy/schedule.h"
#include "whole_program/candidates_ahead.h"

namespace sim::internal {
namespace {

// Outcome file: "verdict signature preemptions exit_status trace_hash
// anchored message mismatch race_to_flip" (the two texts as hex_text.h
// words, the race as race_flip.h encodes it, or "-"), then the choice points ("reduced-flag count" and per point
// "current points enabled-flag switch-flag n t1..tn m a1..am", the a's its
// also_try),
// then a race flip's continuation record (flip_continuations.h), then a newline and the report text (with
// outcome_report).
std::optional<CandidateResult> ReadOutcomeFile(const std::string& path, std::string* report) {
  std::ifstream file(path);
  int verdict = 0;
  CandidateResult result;
  std::string anchored;
  std::string message;
  std::string mismatch;
  std::string race_to_flip;
  std::size_t count = 0;
  int reduced_flag = 0;
  if (!(file >> verdict >> result.outcome.failure_signature >> result.outcome.preemptions >> result.exit_status >>
        result.outcome.trace_hash >> anchored >> message >> mismatch >> race_to_flip >> reduced_flag >> count)) {
    return std::nullopt;
  }
  result.outcome.verdict = static_cast<Verdict>(verdict);
  result.outcome.anchored = DecodeAnchored(anchored);
  std::optional<std::string> message_text = ::common::TextOfHex(message);
  std::optional<std::string> mismatch_text = ::common::TextOfHex(mismatch);
  if (!message_text || !mismatch_text) return std::nullopt;
  result.outcome.message = std::move(*message_text);
  result.outcome.schedule_mismatch = std::move(*mismatch_text);
  if (race_to_flip != "-") result.outcome.race_to_flip = DecodeRaceToFlip(race_to_flip);
  result.reduced = reduced_flag != 0;
  for (std::size_t i = 0; i < count; ++i) {
    ChoiceRecord choice;
    int enabled_flag = 0;
    int switch_flag = 0;
    std::size_t enabled = 0;
    std::size_t also_try = 0;
    if (!(file >> choice.current >> choice.current_points >> enabled_flag >> switch_flag >> enabled)) {
      return std::nullopt;
    }
    choice.current_enabled = enabled_flag != 0;
    choice.switch_by_default = switch_flag != 0;
    choice.enabled.resize(enabled);
    for (ThreadId& thread : choice.enabled) file >> thread;
    if (!(file >> also_try)) return std::nullopt;
    choice.also_try.resize(also_try);
    for (ThreadId& thread : choice.also_try) file >> thread;
    result.choices.push_back(std::move(choice));
  }
  if (!DecodeContinuationRecord(file, result.flip_continuation)) return std::nullopt;
  if (report != nullptr) {
    std::ostringstream rest;
    file.get();  // the newline before the report
    rest << file.rdbuf();
    *report = rest.str();
  }
  return result;
}

// A memory file that only this process holds, named by a path any process
// of this user can open (/proc/<pid>/fd/<fd>): it goes when this process
// does, however it ends. A scratch directory outlived every seed that
// sim-run killed while it shrank (the seeds above the lowest failure, those
// past --timeout). -1 where /proc cannot reopen it.
int MakeOutcomeFile() {
  const int fd = memfd_create("simthread-outcome", MFD_CLOEXEC);
  if (fd < 0) return -1;
  const int reopened = open(("/proc/self/fd/" + std::to_string(fd)).c_str(), O_WRONLY | O_CLOEXEC);
  if (reopened < 0) {
    close(fd);
    return -1;
  }
  close(reopened);
  return fd;
}

}  // namespace

CandidateRunner::CandidateRunner(char** argv) : argv_(argv), server_(argv), outcome_fd_(MakeOutcomeFile()) {}

CandidateRunner::~CandidateRunner() {
  if (outcome_fd_ >= 0) close(outcome_fd_);
}

namespace {

// The kernel's limit on one environment string, "SIM_OPTIONS=" and the
// terminating zero included: past it exec fails with E2BIG.
constexpr std::size_t kMaxEnvironmentString = 128 * 1024;

bool FitsInEnvironment(const std::string& sim_options) {
  return sizeof("SIM_OPTIONS=") + sim_options.size() <= kMaxEnvironmentString;
}

}  // namespace

std::string CandidateRunner::OutcomePath() const {
  return "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(outcome_fd_);
}

std::string CandidateRunner::CandidateOptions(const std::string& extra_options) const {
  const char* existing = std::getenv("SIM_OPTIONS");
  // Every candidate is told whether it holds a lent symbolizer, so that
  // one not told to use it closes it (its extra options may say "use").
  const std::string lent = server_.LendsSymbolizer() ? ":lent_symbolizer=1" : "";
  return std::string(existing != nullptr ? existing : "") + lent + extra_options + ":outcome_file=" + OutcomePath();
}

std::string CandidateRunner::UseLentSymbolizer() const { return server_.LendsSymbolizer() ? ":lent_symbolizer=2" : ""; }

bool CandidateRunner::Fits(const std::string& extra_options) const {
  return FitsInEnvironment(CandidateOptions(extra_options));
}

std::optional<CandidateResult> CandidateRunner::Run(const std::string& extra_options,
                                                    std::chrono::steady_clock::time_point deadline,
                                                    std::string* report) {
  if (!Start(extra_options)) return std::nullopt;
  return Await(deadline, report);
}

bool CandidateRunner::Start(const std::string& extra_options) {
  started_ = false;
  if (outcome_fd_ < 0) return false;
  // Emptied first: a candidate that dies before writing leaves no outcome
  // of the one before it.
  if (ftruncate(outcome_fd_, 0) != 0) return false;
  const std::string options = CandidateOptions(extra_options);
  options_too_long_ = FitsInEnvironment(options) ? 0 : options.size();
  started_ = options_too_long_ == 0 && server_.Start(options);
  return started_;
}

std::optional<CandidateResult> CandidateRunner::Await(std::chrono::steady_clock::time_point deadline,
                                                      std::string* report) {
  if (!started_) return std::nullopt;
  started_ = false;
  if (!server_.Await(deadline)) return std::nullopt;
  return ReadOutcomeFile(OutcomePath(), report);
}

void WriteOutcomeFile(const std::string& path, const Outcome& outcome, const StrategyRecording& recording,
                      int exit_status, const std::string& report) {
  // Built in a string and written with write(2), not an ofstream: after a
  // crash inside libc this runs with libc's heap possibly locked, and the
  // string comes from the runtime's own (core/runtime_heap.h).
  std::string text = std::to_string(static_cast<int>(outcome.verdict)) + ' ' +
                     std::to_string(outcome.failure_signature) + ' ' + std::to_string(outcome.preemptions) + ' ' +
                     std::to_string(exit_status) + ' ' + std::to_string(outcome.trace_hash) + ' ' +
                     EncodeAnchored(outcome.anchored) + ' ' + ::common::HexText(outcome.message) + ' ' +
                     ::common::HexText(outcome.schedule_mismatch) + ' ' +
                     (outcome.race_to_flip.known() ? EncodeRaceToFlip(outcome.race_to_flip) : "-") + '\n' +
                     (recording.reduced ? "1 " : "0 ") + std::to_string(recording.choices.size());
  for (const ChoiceRecord& choice : recording.choices) {
    text += '\n' + std::to_string(choice.current) + ' ' + std::to_string(choice.current_points) + ' ' +
            (choice.current_enabled ? "1 " : "0 ") + (choice.switch_by_default ? "1 " : "0 ") +
            std::to_string(choice.enabled.size());
    for (ThreadId thread : choice.enabled) text += ' ' + std::to_string(thread);
    text += ' ' + std::to_string(choice.also_try.size());
    for (ThreadId thread : choice.also_try) text += ' ' + std::to_string(thread);
  }
  text += '\n' + EncodeContinuationRecord(recording.flip_continuation) + '\n';
  text += report;
  const int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return;
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t count = write(fd, text.data() + written, text.size() - written);
    if (count <= 0) break;
    written += static_cast<std::size_t>(count);
  }
  close(fd);
}

std::string RaceReversalOption(const Options& options) { return options.por != 0 ? ":race_reversals=1" : ""; }

std::string EncodeShrinkProgress(std::uint64_t candidates, ShrinkStop stop) {
  const char* how = "done";
  switch (stop) {
    case ShrinkStop::kDone: how = "done"; break;
    case ShrinkStop::kCandidateBound: how = "bound"; break;
    case ShrinkStop::kTimeCap: how = "time"; break;
    case ShrinkStop::kScheduleTooLong: how = "long"; break;
  }
  return std::to_string(candidates) + ":" + how;
}

bool DecodeShrinkProgress(const std::string& text, std::uint64_t& candidates, ShrinkStop& stop) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  const std::string count = text.substr(0, colon);
  const std::string how = text.substr(colon + 1);
  if (count.find_first_not_of("0123456789") != std::string::npos) return false;
  candidates = std::strtoull(count.c_str(), nullptr, 10);
  if (how == "done") {
    stop = ShrinkStop::kDone;
  } else if (how == "bound") {
    stop = ShrinkStop::kCandidateBound;
  } else if (how == "time") {
    stop = ShrinkStop::kTimeCap;
  } else if (how == "long") {
    stop = ShrinkStop::kScheduleTooLong;
  } else {
    return false;
  }
  return true;
}

namespace {

// Why the told rerun of a failure did not tell it: `told_run` is its answer,
// `answered` of `candidates` shrinking candidates gave one.
std::string NotToldNote(const std::optional<CandidateResult>& told_run, std::uint64_t answered,
                        std::uint64_t candidates) {
  std::string what = "gave no answer (it died before writing its outcome, or ran past the time cap)";
  if (told_run && told_run->outcome.verdict == Verdict::kPass) {
    what = "passed";
  } else if (told_run) {
    what = "ended another way (" + std::string(sim::to_string(told_run->outcome.verdict)) + ")";
  }
  return "not shrunk: rerunning this failure in another process " + what + "; " + std::to_string(answered) + " of " +
         std::to_string(candidates) +
         " shrinking candidates answered. The failure is reported as found; its replay line runs it again. "
         "A failure that depends on more than its schedule (the heap's state after a free, the environment) "
         "can do this";
}

// Where `outcome`'s race is, when its run said.
std::optional<RaceToFlip> KnownRace(const Outcome& outcome) {
  if (!outcome.race_to_flip.known()) return std::nullopt;
  return outcome.race_to_flip;
}

// A data race's answer to "does it matter?" (explore/race_matters.h), as
// the told run's option: its runs are candidates. `best` holds every
// decision of a candidate's execution that met the race (`best_race`, where
// it is), or, when `best_race` is not known, one more run of `best` says
// where its race is. "" when there is nothing to say.
std::string FlipRaceByRerunning(CandidateRunner& candidates, const Options& options, const Outcome& failing,
                                const std::string& candidate_options, const std::vector<AnchoredDecision>& best,
                                const std::optional<RaceToFlip>& best_race) {
  if (failing.verdict != Verdict::kDataRace || options.race_flips == 0) return "";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.shrink_budget_ms);
  RaceToFlip race;
  std::string as_found_options = std::string(kQuietCandidate) + ":races=0:anchored=";
  if (best_race) {
    race = *best_race;
    as_found_options += EncodeAnchored(best);
  } else {
    std::optional<CandidateResult> located =
        candidates.Run(candidate_options + ":anchored=" + EncodeAnchored(best), deadline);
    if (!located || located->outcome.verdict != Verdict::kDataRace) {
      return ":race_flip_told=" +
             EncodeRaceFlipped({"cannot tell whether the race matters: its execution, run again in another process, "
                                "did not find the race again",
                                "", ""});
    }
    race = located->outcome.race_to_flip;
    as_found_options += EncodeAnchored(located->outcome.anchored);
  }
  // One at a time: run beside each other (candidates_ahead.h), two flips
  // took as long as one after the other on a 2-core VM whose page faults
  // are dear (refcount_double_delete's 21: 147 and 150 ms). A continuation
  // that would repeat a flipped execution already run is not run again:
  // its outcome is that one's (flip_continuations.h).
  FlipContinuations flipped_so_far;
  std::vector<Outcome> flipped_outcomes;
  RaceFlipped flipped = TellWhetherRaceMatters(
      race, options.race_flips,
      [&](std::optional<std::uint64_t> flip_continuation) -> std::optional<Outcome> {
        std::string run_options = as_found_options;
        if (flip_continuation) {
          if (*flip_continuation != 0) {
            const std::unique_ptr<Strategy> drawing = MakeFlipContinuationStrategy(*flip_continuation);
            if (const std::optional<std::size_t> repeated = flipped_so_far.Repeated(*drawing))
              return flipped_outcomes[*repeated];
          }
          run_options +=
              ":race_flip=" + EncodeRaceToFlip(race) + ":race_flip_continuation=" + std::to_string(*flip_continuation);
        }
        std::optional<CandidateResult> result = candidates.Run(run_options, deadline);
        if (!result) return std::nullopt;
        if (flip_continuation) {
          flipped_so_far.Add(result->flip_continuation, flipped_outcomes.size());
          flipped_outcomes.push_back(result->outcome);
        }
        return std::move(result->outcome);
      },
      [&](const std::string& schedule) { return FlippedReplayCommand(options, schedule, options.first_seed); });
  // The told run takes it in one environment variable, with the told
  // schedule: a run's schedule is kept out when that would not fit.
  constexpr std::size_t kLongestTold = 32 * 1024;
  if (EncodeRaceFlipped(flipped).size() > kLongestTold) {
    flipped.line += " (that run's schedule, " + std::to_string(flipped.schedule.size()) +
                    " characters, is too long to hand to the run that prints this report)";
    flipped.schedule.clear();
    flipped.replay.clear();
  }
  return ":race_flip_told=" + EncodeRaceFlipped(flipped);
}

}  // namespace

ToldByRerunning ShrinkAndTellByRerunning(CandidateRunner& candidates, const Options& options, const Outcome& failing,
                                         ReplayBy replay_by) {
  ToldByRerunning told;
  ShrinkBudget budget(options, kShrinkReruns);
  const std::string step_limit = ":max_steps=" + std::to_string(CandidateOptions(options, failing).max_steps);
  const std::string candidate_options = kQuietCandidate + step_limit;
  auto rerun = [&](const std::vector<AnchoredDecision>& decisions) {
    return candidates.Run(candidate_options + ":anchored=" + EncodeAnchored(decisions), budget.deadline());
  };

  ShrinkResult progress;
  std::uint64_t answered = 0;  // candidates that wrote an outcome
  std::vector<AnchoredDecision> best = failing.anchored;
  if (!candidates.Fits(candidate_options + ":anchored=" + EncodeAnchored(best))) {
    // Every candidate and the told run would fail to start: said in the
    // report, which this process renders from the failure as found.
    told.stop = ShrinkStop::kScheduleTooLong;
    return told;
  }
  // Where the race is in the execution `best` names, when the candidate
  // that ran it said (the flips need not run it once more to find out).
  std::optional<RaceToFlip> best_race = KnownRace(failing);
  const ReplayAnchored replay = [&](const std::vector<AnchoredDecision>& candidate) -> Outcome {
    std::optional<CandidateResult> result = rerun(candidate);
    answered += result.has_value();
    return result ? std::move(result->outcome) : Outcome{};
  };
  Outcome greedy = failing;  // what greedy removal kept, where the near phase starts
  if (options.shrink != 0) {
    greedy = RemovePreemptions(failing, budget, replay, progress);
    best_race = KnownRace(greedy);
    best = greedy.anchored;
  }
  // The bounded exhaustive phase, as in process (shrink.cpp), one rerun per
  // schedule: from 0 preemptions up, the first schedule that fails the same
  // way has the fewest; taking turns with the near phase once a bound has
  // run kBoundedBeforeNear schedules without one (near_schedules.h).
  std::uint64_t best_preemptions = PreemptionsIn(best);
  std::uint64_t searched_below = 0;  // every schedule with fewer preemptions was tried, and none failed so
  NearTurns near(greedy, failing);
  for (std::uint32_t bound = 0; options.shrink != 0 && bound < best_preemptions && progress.stop == ShrinkStop::kDone;
       ++bound) {
    BoundedSearch search(bound);
    CandidatesAhead candidates_ahead(candidates, ShrinkJobs(options));
    const std::string bounded_options = candidate_options + RaceReversalOption(options);
    // A near schedule runs with the search's next one beside it, on the
    // second core, as the search's own later schedules do.
    const ReplayAnchored near_replay = [&](const std::vector<AnchoredDecision>& schedule) -> Outcome {
      std::optional<CandidateResult> result =
          candidates_ahead.Run(candidate_options + ":anchored=" + EncodeAnchored(schedule),
                               bounded_options + ":anchored=" + EncodeAnchored(search.Prefix()), budget.deadline());
      answered += result.has_value();
      return result ? std::move(result->outcome) : Outcome{};
    };
    for (std::uint64_t run = 0; !search.Exhausted(); ++run) {
      const NearTurns::Turn turn = near.Take(run, best_preemptions, budget, progress, near_replay);
      if (turn == NearTurns::Turn::kBudgetSpent) break;
      if (turn == NearTurns::Turn::kFewerPreemptions) {
        best_preemptions = near.kept().preemptions;
        best_race = KnownRace(near.kept());
        best = near.kept().anchored;
        if (best_preemptions <= bound) break;
      }
      if (!budget.Take(progress)) break;
      std::optional<CandidateResult> result = candidates_ahead.Run(bounded_options, search, budget.deadline());
      if (!result) break;
      ++answered;
      if (SameFailure(result->outcome, failing) && result->outcome.preemptions < best_preemptions) {
        best = std::move(result->outcome.anchored);
        best_preemptions = result->outcome.preemptions;
        best_race = KnownRace(result->outcome);
        break;
      }
      if (!search.Record(result->choices, result->reduced)) break;  // not deterministic: keep what greedy found
    }
    if (search.Exhausted() && searched_below == bound) searched_below = bound + 1;
  }
  told.candidates = progress.candidates;
  told.stop = progress.stop;
  if (options.shrink != 0) told.minimum_at_least = MinimumAtLeast(searched_below, best_preemptions);

  const std::string race_flipped =
      FlipRaceByRerunning(candidates, options, failing, candidate_options, best, best_race);

  // The execution to report, shrunk or not, run once more with its whole
  // trace kept for the story (the failing run kept only its last events);
  // its report file and timeline, if asked for, come from this run. Not
  // given shrink=0: it tells the report as this process would.
  std::string told_options = ":outcome_report=" + std::to_string(failing.preemptions + 1) +
                             ":outcome_shrink=" + EncodeShrinkProgress(progress.candidates, progress.stop);
  if (told.minimum_at_least) told_options += ":outcome_minimum=" + std::to_string(*told.minimum_at_least + 1);
  if (replay_by == ReplayBy::kSchedule) {
    // `best` holds every decision of an execution (candidates keep them
    // all), so its schedule replays that execution exactly, and the report's
    // replay line names it.
    Outcome best_run;
    best_run.anchored = std::move(best);
    told_options += ":schedule=" + EncodeSchedule(best_run.decisions());
  } else {
    told_options += ":anchored=" + EncodeAnchored(best);
  }
  told_options += race_flipped;
  // Its frames are named by this process's symbolizer, which has this
  // program's debug information loaded already (the failing run asked it
  // ahead, World::AskSymbolizerAhead); what it still owes is read first.
  ReadAnswersAskedAhead();
  told_options += candidates.UseLentSymbolizer();
  std::optional<CandidateResult> told_run =
      candidates.Run(told_options, budget.deadline() + std::chrono::seconds(10), &told.report);
  if (!told_run || !SameFailure(told_run->outcome, failing)) {
    told.report.clear();
    told.not_told = NotToldNote(told_run, answered, progress.candidates);
  }
  return told;
}

std::optional<Outcome> RerunSeed(CandidateRunner& candidates, const Options& options) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.shrink_budget_ms) + std::chrono::seconds(10);
  std::optional<CandidateResult> second = candidates.Run(kQuietCandidate, deadline);
  if (!second) return std::nullopt;
  return std::move(second->outcome);
}

std::string DescribeNondeterminism(const Outcome& first, const std::optional<Outcome>& second) {
  if (second && second->trace_hash == first.trace_hash && second->verdict == first.verdict) return "";
  std::string what = "it did not end";
  if (second) {
    char hashes[80];
    std::snprintf(hashes, sizeof hashes, "trace hash %016llx, then %016llx",
                  static_cast<unsigned long long>(first.trace_hash),
                  static_cast<unsigned long long>(second->trace_hash));
    what = hashes;
  }
  return "the same seed gave a different execution in a second run of this program (" + what +
         "). Something outside the world decides the path: the real clock or CPU counters, std::random_device, "
         "addresses (pointer-keyed containers; address randomisation is off unless SIM_ASLR_DISABLED was set), "
         "or uninitialised memory";
}

}  // namespace sim::internal
