// explore.cpp: the driver: one world per seed until one fails.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "crash_guard.h"
#include "options.h"
#include "schedule.h"
#include "world.h"

namespace sim {
namespace {

using internal::Outcome;

std::string ShellQuote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") ==
                           std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// "SIM_OPTIONS='...:seed=N' <this process's command line>": the environment
// outranks options given in code, so this replays the seed whatever the
// program passes to explore().
std::string ReplayCommand(std::uint64_t seed) {
  std::string options;
  if (const char* existing = std::getenv("SIM_OPTIONS")) options = std::string(existing) + ":";
  options += "seed=" + std::to_string(seed);
  std::string command = "SIM_OPTIONS=" + ShellQuote(options);
  const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    std::string cmdline;
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) cmdline.append(buffer, n);
    close(fd);
    for (std::size_t start = 0; start < cmdline.size();) {
      const std::size_t end = cmdline.find('\0', start);
      command += " " + ShellQuote(cmdline.substr(start, end - start));
      start = end == std::string::npos ? cmdline.size() : end + 1;
    }
  }
  return command;
}

Report MakeReport(Outcome outcome, std::uint64_t seed, std::uint64_t seeds_passed) {
  Report report;
  report.seed = seed;
  report.seeds_passed = seeds_passed;
  report.verdict = outcome.verdict;
  report.message = std::move(outcome.message);
  report.schedule = internal::EncodeSchedule(outcome.decisions);
  report.trace_hash = outcome.trace_hash;
  report.step = outcome.steps;
  report.preemptions = outcome.preemptions;
  report.threads = std::move(outcome.threads);
  report.last_events = std::move(outcome.last_events);
  report.replay = ReplayCommand(seed);
  return report;
}

}  // namespace

std::optional<Report> explore(std::function<void()> body, const Options& given) {
  if (internal::current_world != nullptr) {
    throw std::logic_error("sim::explore: called inside a world; worlds do not nest");
  }
  Options options = given;
  internal::ApplyEnvironmentOptions(options);
  if (options.seeds == 0) throw std::invalid_argument("sim::explore: seeds must be at least 1");
  if (options.stack_size < 16384) {
    throw std::invalid_argument("SIM_OPTIONS: option 'stack_size' must be at least 16384 bytes");
  }
  std::unique_ptr<internal::Strategy> strategy = internal::MakeStrategy(options.strategy);
  internal::CrashGuard crash_guard;

  for (std::uint64_t index = 0; index < options.seeds; ++index) {
    const std::uint64_t seed = options.first_seed + index;
    Outcome outcome;
    {
      internal::World world(options, *strategy, seed);
      outcome = world.Run(body);
    }
    if (outcome.verdict == Verdict::kCrash) internal::CrashGuard::AfterCrash();
    if (!outcome.schedule_mismatch.empty()) {
      throw std::runtime_error("sim::explore: the replayed schedule does not fit this program: " +
                               outcome.schedule_mismatch);
    }
    if (outcome.verdict != Verdict::kPass) return MakeReport(std::move(outcome), seed, index);
  }
  return std::nullopt;
}

void fail(std::string_view message) {
  if (internal::InWorld() && internal::current_world != nullptr) {
    internal::World& world = *internal::current_world;
    world.EndExecution(Verdict::kFailure,
                       std::string(message) + " (in T" + std::to_string(world.running().id) + ")");
  }
  std::fprintf(stderr, "simthread: sim::fail outside a world: %.*s\n", static_cast<int>(message.size()),
               message.data());
  std::abort();
}

bool active() { return internal::InWorld(); }

}  // namespace sim
