// rerun.cpp: candidate processes for whole-program shrinking (see rerun.h).
#include "rerun.h"

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

#include "../schedule.h"
#include "../shrink.h"

extern char** environ;

namespace sim::internal {
namespace {

// Outcome file: line 1 "verdict signature preemptions exit_status", line 2
// the anchored decisions, then the report text (with outcome_report).
std::optional<Outcome> ReadOutcomeFile(const std::string& path, std::string* report) {
  std::ifstream file(path);
  int verdict = 0;
  int exit_status = 0;
  Outcome outcome;
  std::string anchored;
  if (!(file >> verdict >> outcome.failure_signature >> outcome.preemptions >> exit_status >> anchored)) {
    return std::nullopt;
  }
  outcome.verdict = static_cast<Verdict>(verdict);
  outcome.anchored = DecodeAnchored(anchored);
  if (report != nullptr) {
    std::ostringstream rest;
    file.get();  // the newline after the anchored decisions
    rest << file.rdbuf();
    *report = rest.str();
  }
  return outcome;
}

// Runs this program again with `extra_options` appended to SIM_OPTIONS, its
// output discarded, killed if it outlives `deadline` by more than a second.
bool Rerun(char** argv, const std::string& extra_options, std::chrono::steady_clock::time_point deadline) {
  std::vector<std::string> environment;
  const char* existing = std::getenv("SIM_OPTIONS");
  for (char** entry = environ; *entry != nullptr; ++entry) {
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

}  // namespace

void WriteOutcomeFile(const Options& options, const Outcome& outcome, int exit_status, const std::string& report) {
  std::ofstream file(options.outcome_file, std::ios::trunc);
  file << static_cast<int>(outcome.verdict) << ' ' << outcome.failure_signature << ' ' << outcome.preemptions << ' '
       << exit_status << ' ' << EncodeAnchored(outcome.anchored) << '\n'
       << report;
}

std::string ShrinkByRerunning(char** argv, const Options& options, const Outcome& failing) {
  char directory_template[] = "/tmp/simthread-shrink-XXXXXX";
  if (mkdtemp(directory_template) == nullptr) return "";
  const std::string outcome_path = std::string(directory_template) + "/outcome";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.shrink_budget_ms);
  // Candidates write no report file or timeline of their own.
  const std::string candidate_options = ":shrink=0:report_json=:timeline=:outcome_file=" + outcome_path;

  ShrinkResult progress;
  const std::vector<AnchoredDecision> best = RemovePreemptions(
      failing, deadline,
      [&](const std::vector<AnchoredDecision>& candidate) -> Outcome {
        std::remove(outcome_path.c_str());
        if (!Rerun(argv, candidate_options + ":anchored=" + EncodeAnchored(candidate), deadline)) return {};
        return ReadOutcomeFile(outcome_path, nullptr).value_or(Outcome{});
      },
      progress);

  std::string report;
  if (PreemptionsIn(best) < failing.preemptions) {
    // The shrunk execution, described in full (its report file and
    // timeline, if asked for, come from this run).
    std::remove(outcome_path.c_str());
    std::string final_options = ":shrink=0:outcome_report=" + std::to_string(failing.preemptions + 1) +
                                ":outcome_file=" + outcome_path +
                                ":anchored=" + EncodeAnchored(best);
    if (Rerun(argv, final_options, deadline + std::chrono::seconds(10))) {
      std::optional<Outcome> shrunk = ReadOutcomeFile(outcome_path, &report);
      if (!shrunk || !SameFailure(*shrunk, failing)) report.clear();
    }
  }
  std::remove(outcome_path.c_str());
  rmdir(directory_template);
  return report;
}

}  // namespace sim::internal
