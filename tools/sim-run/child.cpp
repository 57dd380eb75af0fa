// child.cpp: spawning one seed's process and classifying how it ended.
#include "child.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/child_environment.h"
#include "json.h"

namespace simrun {
namespace {

// Of a child's stderr beyond this only the tail is kept: the report block of
// whole-program mode is the last thing a failing run prints.
constexpr std::size_t kMaxReportBytes = 1 << 20;

std::string ReadFile(const std::string& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  std::string contents = text.str();
  if (contents.size() > max_bytes) {
    contents = "[... " + std::to_string(contents.size() - max_bytes) + " bytes cut ...]\n" +
               contents.substr(contents.size() - max_bytes);
  }
  return contents;
}

std::string SignalName(int signal_number) {
  if (const char* abbrev = sigabbrev_np(signal_number)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal_number);
}

}  // namespace

std::string SeedOptions(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points) {
  // Later keys win in SIM_OPTIONS, so ours come after the user's.
  std::string options = spec.base_options;
  auto add = [&options](const std::string& option) { options += (options.empty() ? "" : ":") + option; };
  // A schedule is the whole execution: a seed beside it would pick nothing;
  // nor does one in a bounded search, where seeds=N caps the schedules.
  if (spec.schedule.empty() && spec.bounded_search.empty()) add("seed=" + std::to_string(seed));
  if (!spec.strategy.empty()) add("strategy=" + spec.strategy);
  if (spec.schedule_cap) add("seeds=" + std::to_string(*spec.schedule_cap));
  if (!spec.schedule.empty()) add("schedule=" + spec.schedule);
  if (!spec.shrink.empty()) options += ":shrink=" + spec.shrink;
  if (spec.pass_exit_status_given) options += ":pass_exit_status=" + std::to_string(spec.pass_exit_status);
  if (pct_choice_points != 0) options += ":pct_choice_points=" + std::to_string(pct_choice_points);
  return options;
}

std::string ReplayCommand(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points) {
  std::string command = "SIM_OPTIONS=" + ShellQuote(SeedOptions(spec, seed, pct_choice_points));
  for (const std::string& word : spec.argv) command += " " + ShellQuote(word);
  return command;
}

std::string ReportJsonPath(const LaunchSpec& spec, std::uint64_t seed) {
  return spec.scratch_dir + "/seed-" + std::to_string(seed) + ".json";
}

std::string StderrPath(const LaunchSpec& spec, std::uint64_t seed) {
  return spec.scratch_dir + "/seed-" + std::to_string(seed) + ".stderr";
}

std::string SearchProgressPath(const LaunchSpec& spec) { return spec.scratch_dir + "/search.progress"; }

std::string ChoicePointsPath(const LaunchSpec& spec, std::uint64_t seed) {
  return spec.scratch_dir + "/seed-" + std::to_string(seed) + ".choice_points";
}

std::string ChildOptions(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points) {
  std::string options = SeedOptions(spec, seed, pct_choice_points) + ":report_json=" + ReportJsonPath(spec, seed);
  if (spec.learns_pct_choice_points) options += ":choice_points_file=" + ChoicePointsPath(spec, seed);
  if (spec.schedule_timeout_ms) options += ":schedule_timeout_ms=" + std::to_string(*spec.schedule_timeout_ms);
  if (!spec.bounded_search.empty()) options += ":progress_file=" + SearchProgressPath(spec);
  if (!spec.known_failures_dir.empty()) options += ":known_failures=" + spec.known_failures_dir;
  return options;
}

pid_t SpawnSeed(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points) {
  return SpawnProgram(spec, ChildOptions(spec, seed, pct_choice_points), StderrPath(spec, seed), -1);
}

pid_t SpawnProgram(const LaunchSpec& spec, const std::string& sim_options, const std::string& stderr_path, int fd3) {
  sim::common::ChildEnvironment environment(sim_options);
  std::vector<char*> argv;
  for (const std::string& word : spec.argv) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd3 >= 0) posix_spawn_file_actions_adddup2(&actions, fd3, 3);

  // sim-run blocks the signals it waits for; the child starts with none
  // blocked and default dispositions, in a process group of its own.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int signal_number : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT}) {
    sigaddset(&defaults, signal_number);
  }
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

  pid_t pid = -1;
  const int error =
      posix_spawn(&pid, spec.program_path.c_str(), &actions, &attributes, argv.data(), environment.envp());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    errno = error;
    return -1;
  }
  return pid;
}

Outcome ClassifyExit(const LaunchSpec& spec, std::uint64_t seed, int wait_status, bool timed_out,
                     const std::string& timeout_text) {
  Outcome outcome;
  outcome.report = ReadFile(StderrPath(spec, seed), kMaxReportBytes);
  const std::optional<JsonObject> json = ParseJsonObject(ReadFile(ReportJsonPath(spec, seed), kMaxReportBytes));
  auto field = [&json](const char* key) -> std::string {
    if (!json) return {};
    const auto it = json->find(key);
    return it == json->end() || it->second == "null" ? std::string() : it->second;
  };
  outcome.message = field("message");
  outcome.schedule = field("schedule");
  outcome.trace_hash = field("trace_hash");
  outcome.preemptions = field("preemptions");
  outcome.preemptions_before_shrink = field("preemptions_before_shrink");
  outcome.failure_signature = field("failure_signature");
  outcome.schedules = field("schedules");
  outcome.exhausted = field("exhausted") == "true";
  outcome.replay = field("replay");
  outcome.unreduced_by = field("unreduced_by");

  if (timed_out) {
    outcome.verdict = "hang (killed after " + timeout_text + " s)";
    outcome.kind = "hang";
    outcome.message = "still running after " + timeout_text + " s of wall-clock time (--timeout); killed";
    return outcome;
  }
  if (WIFSIGNALED(wait_status)) {
    const std::string signal_name = SignalName(WTERMSIG(wait_status));
    outcome.verdict = "crash (" + signal_name + ")";
    outcome.kind = "crash";
    if (outcome.message.empty()) outcome.message = "killed by " + signal_name;
    return outcome;
  }
  const int status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  if (status == spec.pass_exit_status) {
    outcome.passed = true;
    outcome.verdict = outcome.kind = "pass";
    return outcome;
  }
  // The runtime's own verdict whenever it wrote one, whatever the status:
  // main returning 1 is its "failure" (status 1 kept), as the report says.
  const std::string json_verdict = field("verdict");
  if (!json_verdict.empty() && json_verdict != "pass") {
    outcome.verdict = outcome.kind = json_verdict;
    return outcome;
  }
  outcome.verdict = outcome.kind = "exit status " + std::to_string(status);
  if (outcome.message.empty()) {
    outcome.message = status == kRuntimeFailureExitStatus
                          ? "exited with status 66 but wrote no report (was it built with sim-clang++?)"
                          : "exited with status " + std::to_string(status);
  }
  return outcome;
}

}  // namespace simrun
