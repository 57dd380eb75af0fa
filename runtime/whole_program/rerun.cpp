// rerun.cpp: candidate processes for whole-program shrinking (see rerun.h).
#include "whole_program/rerun.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "explore/shrink.h"
#include "strategy/schedule.h"

namespace sim::internal {
namespace {

// Outcome file: "verdict signature preemptions exit_status trace_hash
// anchored", then
// the choice points ("count" and per point "current points enabled-flag n
// t1..tn"), then a newline and the report text (with outcome_report).
struct CandidateResult {
  Outcome outcome;
  std::vector<ChoiceRecord> choices;
};

std::optional<CandidateResult> ReadOutcomeFile(const std::string& path, std::string* report) {
  std::ifstream file(path);
  int verdict = 0;
  int exit_status = 0;
  CandidateResult result;
  std::string anchored;
  std::size_t count = 0;
  if (!(file >> verdict >> result.outcome.failure_signature >> result.outcome.preemptions >> exit_status >>
        result.outcome.trace_hash >> anchored >> count)) {
    return std::nullopt;
  }
  result.outcome.verdict = static_cast<Verdict>(verdict);
  result.outcome.anchored = DecodeAnchored(anchored);
  for (std::size_t i = 0; i < count; ++i) {
    ChoiceRecord choice;
    int enabled_flag = 0;
    std::size_t enabled = 0;
    if (!(file >> choice.current >> choice.current_points >> enabled_flag >> enabled)) return std::nullopt;
    choice.current_enabled = enabled_flag != 0;
    choice.enabled.resize(enabled);
    for (ThreadId& thread : choice.enabled) file >> thread;
    result.choices.push_back(std::move(choice));
  }
  if (report != nullptr) {
    std::ostringstream rest;
    file.get();  // the newline before the report
    rest << file.rdbuf();
    *report = rest.str();
  }
  return result;
}

// Runs this program again with `extra_options` appended to SIM_OPTIONS, its
// output discarded, killed if it outlives `deadline` by more than a second.
bool Rerun(char** argv, const std::string& extra_options, std::chrono::steady_clock::time_point deadline) {
  std::vector<std::string> environment;
  const char* existing = std::getenv("SIM_OPTIONS");
  // __environ, glibc's reserved name: a user global named `environ` cannot replace it.
  for (char** entry = __environ; *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, "SIM_OPTIONS=", 12) != 0) environment.emplace_back(*entry);
  }
  environment.push_back(std::string("SIM_OPTIONS=") + (existing != nullptr ? existing : "") + extra_options);
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t child;
  const bool started = posix_spawn(&child, "/proc/self/exe", &actions, nullptr, argv, envp.data()) == 0;
  posix_spawn_file_actions_destroy(&actions);
  if (!started) return false;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return true;
    if (done < 0) return false;
    if (std::chrono::steady_clock::now() > deadline + std::chrono::seconds(1)) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// A private directory for one outcome file, removed with what is in it.
class ScratchOutcome {
 public:
  ScratchOutcome() {
    char directory[] = "/tmp/simthread-rerun-XXXXXX";
    if (mkdtemp(directory) != nullptr) directory_ = directory;
  }
  ~ScratchOutcome() {
    if (directory_.empty()) return;
    std::remove(path().c_str());
    rmdir(directory_.c_str());
  }
  bool ok() const { return !directory_.empty(); }
  std::string path() const { return directory_ + "/outcome"; }

 private:
  std::string directory_;
};

}  // namespace

void WriteOutcomeFile(const std::string& path, const Outcome& outcome, const std::vector<ChoiceRecord>& choices,
                      int exit_status, const std::string& report) {
  std::ofstream file(path, std::ios::trunc);
  file << static_cast<int>(outcome.verdict) << ' ' << outcome.failure_signature << ' ' << outcome.preemptions << ' '
       << exit_status << ' ' << outcome.trace_hash << ' ' << EncodeAnchored(outcome.anchored) << '\n'
       << choices.size();
  for (const ChoiceRecord& choice : choices) {
    file << '\n'
         << choice.current << ' ' << choice.current_points << ' ' << (choice.current_enabled ? 1 : 0) << ' '
         << choice.enabled.size();
    for (ThreadId thread : choice.enabled) file << ' ' << thread;
  }
  file << '\n' << report;
}

std::string EncodeShrinkProgress(std::uint64_t candidates, ShrinkStop stop) {
  const char* how = "done";
  switch (stop) {
    case ShrinkStop::kDone: how = "done"; break;
    case ShrinkStop::kCandidateBound: how = "bound"; break;
    case ShrinkStop::kTimeCap: how = "time"; break;
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
  } else {
    return false;
  }
  return true;
}

ShrunkByRerunning ShrinkByRerunning(char** argv, const Options& options, const Outcome& failing) {
  ShrunkByRerunning shrunk;
  const ScratchOutcome scratch;
  if (!scratch.ok()) return shrunk;
  const std::string outcome_path = scratch.path();
  ShrinkBudget budget(options, kShrinkReruns);
  // Candidates write no report file or timeline of their own.
  const std::string step_limit = ":max_steps=" + std::to_string(CandidateOptions(options, failing).max_steps);
  const std::string candidate_options = ":shrink=0:report_json=:timeline=:outcome_file=" + outcome_path + step_limit;

  auto rerun = [&](const std::vector<AnchoredDecision>& decisions) -> std::optional<CandidateResult> {
    std::remove(outcome_path.c_str());
    if (!Rerun(argv, candidate_options + ":anchored=" + EncodeAnchored(decisions), budget.deadline())) {
      return std::nullopt;
    }
    return ReadOutcomeFile(outcome_path, nullptr);
  };
  ShrinkResult progress;
  std::vector<AnchoredDecision> best = RemovePreemptions(
      failing, budget,
      [&](const std::vector<AnchoredDecision>& candidate) -> Outcome {
        std::optional<CandidateResult> result = rerun(candidate);
        return result ? std::move(result->outcome) : Outcome{};
      },
      progress);
  // The bounded exhaustive phase, as in process (shrink.cpp), one rerun per
  // schedule: from 0 preemptions up, the first schedule that fails the same
  // way has the fewest.
  std::uint64_t best_preemptions = PreemptionsIn(best);
  for (std::uint32_t bound = 0; bound < best_preemptions && progress.stop == ShrinkStop::kDone; ++bound) {
    BoundedSearch search(bound);
    while (!search.Exhausted()) {
      if (!budget.Take(progress)) break;
      std::optional<CandidateResult> result = rerun(search.Prefix());
      if (!result) break;
      if (SameFailure(result->outcome, failing) && result->outcome.preemptions < best_preemptions) {
        best = std::move(result->outcome.anchored);
        best_preemptions = result->outcome.preemptions;
        break;
      }
      if (!search.Record(result->choices)) break;  // not deterministic: keep what greedy found
    }
  }
  shrunk.candidates = progress.candidates;
  shrunk.stop = progress.stop;

  if (PreemptionsIn(best) < failing.preemptions) {
    // The shrunk execution, described in full (its report file and
    // timeline, if asked for, come from this run).
    std::remove(outcome_path.c_str());
    std::string final_options = ":shrink=0" + step_limit +
                                ":outcome_report=" + std::to_string(failing.preemptions + 1) +
                                ":outcome_shrink=" + EncodeShrinkProgress(progress.candidates, progress.stop) +
                                ":outcome_file=" + outcome_path + ":anchored=" + EncodeAnchored(best);
    if (Rerun(argv, final_options, budget.deadline() + std::chrono::seconds(10))) {
      std::optional<CandidateResult> final_run = ReadOutcomeFile(outcome_path, &shrunk.report);
      if (!final_run || !SameFailure(final_run->outcome, failing)) shrunk.report.clear();
    }
  }
  return shrunk;
}

std::string RecheckByRerunning(char** argv, const Options& options, const Outcome& first) {
  const ScratchOutcome scratch;
  if (!scratch.ok()) return "";
  const std::string outcome_path = scratch.path();
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.shrink_budget_ms) + std::chrono::seconds(10);
  const bool ran = Rerun(argv,
                         ":shrink=0:check_determinism=0:report_json=:timeline=:outcome_file=" + outcome_path +
                             ":schedule=" + EncodeSchedule(first.decisions()),
                         deadline);
  const std::optional<CandidateResult> second = ran ? ReadOutcomeFile(outcome_path, nullptr) : std::nullopt;
  char hashes[80];
  if (!second) {
    return "the same schedule gave a different execution in a second run of this program: the replay could "
           "not follow the schedule (it met different choice points). Something outside the world decides the "
           "path: the real clock or CPU counters, std::random_device, addresses (pointer-keyed containers; "
           "address randomisation is off unless SIM_ASLR_DISABLED was set), or uninitialised memory";
  }
  if (second->outcome.trace_hash == first.trace_hash && second->outcome.verdict == first.verdict) return "";
  std::snprintf(hashes, sizeof hashes, "trace hash %016llx, then %016llx",
                static_cast<unsigned long long>(first.trace_hash),
                static_cast<unsigned long long>(second->outcome.trace_hash));
  return std::string("the same schedule gave a different execution in a second run of this program (") + hashes +
         "). Something outside the world decides the path: the real clock or CPU counters, std::random_device, "
         "addresses (pointer-keyed containers; address randomisation is off unless SIM_ASLR_DISABLED was set), "
         "or uninitialised memory";
}

}  // namespace sim::internal
