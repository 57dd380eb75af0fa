// libc_crash.cpp: see libc_crash.h. The handlers run in the crash guard's
// signal handler and allocate only from the runtime's own heap: strings,
// vectors and the outcome file's text, written with write(2).
#include "whole_program/libc_crash.h"

#include <signal.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <string>

#include "common/child_environment.h"
#include "core/world.h"
#include "explore/crash_guard.h"
#include "strategy/recording.h"
#include "whole_program/rerun.h"

namespace sim::internal {
namespace {

std::string outcome_file;
std::uint64_t outcome_report = 0;  // 1 + the preemptions before shrinking, when the report is told
char** program_argv = nullptr;

void AnswerCrash(int signal_number, World& world) {
  const Outcome& outcome = world.EndInPlaceByLibcFault(signal_number);
  const std::string report =
      outcome_report != 0 ? CrashGuard::ShortReport(signal_number, world, outcome_report - 1) : std::string();
  WriteOutcomeFile(outcome_file, outcome, StrategyRecording{}, 0, report);
  CrashGuard::DieBy(signal_number);
}

void ExecFreshImage(int signal_number, World& world) {
  const Outcome& outcome = world.EndInPlaceByLibcFault(signal_number);
  const char* existing = getenv("SIM_OPTIONS");
  char crash[80];
  std::snprintf(crash, sizeof crash, ":libc_crash=%d.%" PRIu64 ".%" PRIu64, signal_number, outcome.trace_hash,
                outcome.choice_points);
  sim::common::ChildEnvironment environment(std::string(existing != nullptr ? existing : "") + crash);
  // The signal stays blocked across exec unless unblocked here; the fresh
  // image dies by it at the end.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
  execve("/proc/self/exe", program_argv, environment.envp());
  // exec failed: the short report, as without a handler.
}

}  // namespace

void AnswerLibcCrashes(const InternalOptions& internal) {
  outcome_file = internal.outcome_file;
  outcome_report = internal.outcome_report;
  CrashGuard::SetLibcFaultHandler(AnswerCrash);
}

void HandLibcCrashesToAFreshImage(char** argv) {
  program_argv = argv;
  CrashGuard::SetLibcFaultHandler(ExecFreshImage);
}

std::optional<Outcome> LibcCrashAsFound(const InternalOptions& internal) {
  int signal_number = 0;
  unsigned long long trace_hash = 0;
  unsigned long long choice_points = 0;
  if (std::sscanf(internal.libc_crash.c_str(), "%d.%llu.%llu", &signal_number, &trace_hash, &choice_points) != 3 ||
      signal_number <= 0 || signal_number >= NSIG) {
    return std::nullopt;
  }
  Outcome outcome;
  outcome.verdict = Verdict::kCrash;
  outcome.signal_number = signal_number;
  outcome.trace_hash = trace_hash;
  outcome.choice_points = choice_points;
  outcome.process_suspect = true;
  const char* name = sigabbrev_np(signal_number);
  outcome.message = std::string("received SIG") + (name != nullptr ? name : "?") +
                    " inside libc: glibc found the heap corrupted (a double free, a use after free) or a check failed";
  return outcome;
}

}  // namespace sim::internal
