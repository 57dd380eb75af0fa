// command_line.cpp: parsing sim-run's flags, resolving PROG, and the
// usage text (see command_line.h).
#include "command_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <thread>

namespace simrun {
namespace {

constexpr const char* kUsage =
    "usage: sim-run [--seeds N] [--start K] [--strategy S] [--schedule S] [--[no-]shrink] [--jobs J]\n"
    "               [--timeout SECONDS | --no-timeout] [--no-fork-server]\n"
    "               [--keep-going] [--report-json PATH] [--pass-exit-status N] -- PROG [ARGS...]\n"
    "Runs PROG (built with sim-clang++) once per seed K in [start, start+N) with\n"
    "SIM_OPTIONS=seed=K, J at a time, and reports the lowest failing seed.\n"
    "  --seeds N          seeds to run (default 100)\n"
    "  --start K          first seed (default 0)\n"
    "  --strategy S       SIM_OPTIONS strategy: random | pct:D | pos | portfolio[:S,...] | replay:<schedule>\n"
    "                     | dfs:P: every schedule with at most P preemptions, one process each\n"
    "                     (--seeds caps the schedules, --timeout kills one; one search, not J)\n"
    "  --schedule S       replay a printed schedule (S1-...) or the one in @FILE exactly (one seed unless --seeds)\n"
    "  --shrink           shrink the failing seed's schedule before reporting it (the default)\n"
    "  --no-shrink        report the failing schedule as found\n"
    "  --jobs J           processes at a time (default: number of cores)\n"
    "  --timeout SECONDS  kill a run after this much wall-clock time and report a hang\n"
    "                     (default 60: blocking I/O or a real-thread wait never ends a world)\n"
    "  --no-timeout       wait for every run however long it takes\n"
    "  --keep-going       run every seed, even after a failure\n"
    "  --report-json PATH write the result as JSON\n"
    "  --pass-exit-status N  the status PROG exits with when it passes (default 0, a test\n"
    "                     driver's may be another); also sets pass_exit_status=N for PROG\n"
    "  --no-fork-server   spawn PROG once per seed; by default PROG (when built with\n"
    "                     sim-clang++) starts once per job and forks each seed after\n"
    "                     its static initialisation, with the same results, faster\n"
    "Exit status: 0 all passed, 1 a seed failed, 2 usage error.\n";

[[noreturn]] void UsageError(const std::string& message) {
  std::fprintf(stderr, "sim-run: %s\n%s", message.c_str(), kUsage);
  std::exit(kExitUsage);
}

std::uint64_t ParseCount(const std::string& flag, const std::string& text, std::uint64_t minimum) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) {
    UsageError("bad number for " + flag + ": '" + text + "' (expected a whole number >= " + std::to_string(minimum) +
               ")");
  }
  if (value < minimum) {
    UsageError("bad number for " + flag + ": '" + text + "' (must be >= " + std::to_string(minimum) + ")");
  }
  return value;
}

double ParseSeconds(const std::string& text) {
  char* stop = nullptr;
  errno = 0;
  const double value = text.empty() ? 0 : std::strtod(text.c_str(), &stop);
  if (text.empty() || errno != 0 || *stop != '\0' || !(value > 0) || value > 1e9 ||
      text.find_first_not_of("0123456789.") != std::string::npos) {
    UsageError("bad number for --timeout: '" + text + "' (expected seconds > 0, e.g. 10 or 0.5)");
  }
  return value;
}

// The file posix_spawn should execute for `program`, searched in PATH when it
// has no '/' (as a shell would); a usage error when there is none.
std::string ResolveProgram(const std::string& program) {
  auto check = [](const std::string& path) -> std::string {
    struct stat info;
    if (stat(path.c_str(), &info) != 0) return "not found";
    if (S_ISDIR(info.st_mode)) return "is a directory";
    if (access(path.c_str(), X_OK) != 0) return "is not executable (chmod +x, or build it with sim-clang++)";
    return {};
  };
  if (program.find('/') != std::string::npos) {
    const std::string problem = check(program);
    if (!problem.empty()) UsageError("program " + program + " " + problem);
    return program;
  }
  const char* path_variable = std::getenv("PATH");
  std::string path = path_variable ? path_variable : "/usr/local/bin:/usr/bin:/bin";
  std::string first_problem;
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = end == start ? "." : path.substr(start, end - start);
    const std::string candidate = dir + "/" + program;
    const std::string problem = check(candidate);
    if (problem.empty()) return candidate;
    if (first_problem.empty() && problem != "not found") first_problem = candidate + " " + problem;
    start = end + 1;
  }
  if (!first_problem.empty()) UsageError("program " + first_problem);
  UsageError("program " + program + " not found in PATH (for a file in this directory, write ./" + program + ")");
}

// Where the value of the last `key` (with its '=') in SIM_OPTIONS starts, or
// npos: the last one wins, as in the runtime's parser.
std::size_t LastValueOf(const std::string& options, std::string_view key) {
  std::size_t value = std::string::npos;
  for (std::size_t at = options.find(key); at != std::string::npos; at = options.find(key, at + 1)) {
    if (at != 0 && std::string_view(":, \t\n").find(options[at - 1]) == std::string_view::npos) continue;
    value = at + key.size();
  }
  return value;
}

// pass_exit_status in the user's SIM_OPTIONS, or 0; a malformed value is the
// runtime's error to name.
int PassExitStatusIn(const std::string& options) {
  const std::size_t value = LastValueOf(options, "pass_exit_status=");
  return value == std::string::npos ? 0 : std::atoi(options.c_str() + value);
}

// The strategy SIM_OPTIONS names, or "".
std::string StrategyIn(const std::string& options) {
  const std::size_t value = LastValueOf(options, "strategy=");
  if (value == std::string::npos) return "";
  const std::size_t end = options.find(':', value);
  std::string strategy = options.substr(value, end == std::string::npos ? end : end - value);
  if (strategy != "dfs" || end == std::string::npos) return strategy;
  // dfs:P has a colon of its own: the bound is the next field.
  const std::size_t bound_end = options.find(':', end + 1);
  return options.substr(value, bound_end == std::string::npos ? bound_end : bound_end - value);
}

}  // namespace

Config ParseCommandLine(int argc, char** argv) {
  Config config;
  int i = 1;
  // A flag's value, from "--flag=value" or the next argument.
  auto value_of = [&](const std::string& flag, const std::string& arg) -> std::string {
    if (arg.size() > flag.size() && arg[flag.size()] == '=') return arg.substr(flag.size() + 1);
    if (i + 1 >= argc) UsageError(flag + " needs a value");
    return argv[++i];
  };
  auto is = [](const std::string& arg, const char* flag) {
    const std::size_t n = std::strlen(flag);
    return arg.compare(0, n, flag) == 0 && (arg.size() == n || arg[n] == '=');
  };
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(kExitPassed);
    }
    if (is(arg, "--seeds")) {
      config.seeds = ParseCount("--seeds", value_of("--seeds", arg), 1);
      config.seeds_given = true;
    } else if (is(arg, "--start")) {
      config.start = ParseCount("--start", value_of("--start", arg), 0);
    } else if (is(arg, "--strategy")) {
      config.strategy = value_of("--strategy", arg);
      if (config.strategy.empty())
        UsageError("--strategy needs a value: random | pct:D | pos | portfolio[:S,S,...] | replay:<schedule> | dfs:P");
    } else if (is(arg, "--schedule")) {
      config.schedule = value_of("--schedule", arg);
      if (config.schedule.empty()) UsageError("--schedule needs a value: a printed schedule (S1-...) or @FILE");
      if (!config.seeds_given) config.seeds = 1;  // a schedule is one execution
    } else if (is(arg, "--jobs")) {
      const std::uint64_t jobs = ParseCount("--jobs", value_of("--jobs", arg), 1);
      if (jobs > 4096) UsageError("bad number for --jobs: '" + std::to_string(jobs) + "' (at most 4096)");
      config.jobs = static_cast<unsigned>(jobs);
    } else if (is(arg, "--timeout")) {
      config.timeout_text = value_of("--timeout", arg);
      config.timeout_seconds = ParseSeconds(config.timeout_text);
    } else if (arg == "--no-timeout") {
      config.timeout_seconds.reset();
    } else if (arg == "--shrink") {
      config.shrink = "1";
    } else if (arg == "--no-shrink") {
      config.shrink = "0";
    } else if (arg == "--no-fork-server") {
      config.fork_server = false;
    } else if (arg == "--keep-going") {
      config.keep_going = true;
    } else if (is(arg, "--report-json")) {
      config.report_json_path = value_of("--report-json", arg);
      if (config.report_json_path.empty()) UsageError("--report-json needs a path");
    } else if (is(arg, "--pass-exit-status")) {
      const std::uint64_t status = ParseCount("--pass-exit-status", value_of("--pass-exit-status", arg), 0);
      if (status > 255)
        UsageError("bad number for --pass-exit-status: '" + std::to_string(status) + "' (an exit status is 0 to 255)");
      config.pass_exit_status = static_cast<int>(status);
    } else if (arg.size() > 1 && arg[0] == '-') {
      UsageError("unknown flag '" + arg + "'");
    } else {
      break;  // the program, without "--"
    }
  }
  for (; i < argc; ++i) config.command.emplace_back(argv[i]);
  if (config.command.empty()) UsageError("missing program: give it after '--', e.g. sim-run --seeds 1000 -- ./prog");
  if (config.start > UINT64_MAX - config.seeds) UsageError("--start + --seeds overflows a 64-bit seed");
  if (config.jobs == 0) config.jobs = std::max(1u, std::thread::hardware_concurrency());
  return config;
}

LaunchSpec LaunchSpecFor(const Config& config) {
  LaunchSpec spec;
  spec.program_path = ResolveProgram(config.command.front());
  spec.argv = config.command;
  if (const char* options = std::getenv("SIM_OPTIONS")) spec.base_options = options;
  spec.strategy = config.strategy;
  // A bounded search is one process that drives it (the runtime's
  // whole_program/search_across_processes.h), whichever way it was asked for.
  const std::string strategy = config.strategy.empty() ? StrategyIn(spec.base_options) : config.strategy;
  if (strategy.starts_with("dfs:") && config.schedule.empty()) {
    spec.bounded_search = strategy;
    if (config.seeds_given) spec.schedule_cap = config.seeds;
    if (config.timeout_seconds) {
      spec.schedule_timeout_ms = static_cast<std::uint64_t>(std::max(1.0, *config.timeout_seconds * 1000));
    }
  }
  spec.schedule = config.schedule;
  spec.shrink = config.shrink;
  // The runtime's default strategy and `portfolio` alone have pct members.
  const bool runs_pct = strategy.empty() || strategy == "portfolio" || strategy.find("pct:") != std::string::npos;
  spec.learns_pct_choice_points = runs_pct && spec.schedule.empty() && spec.bounded_search.empty() &&
                                  LastValueOf(spec.base_options, "pct_choice_points=") == std::string::npos;
  if (config.pass_exit_status) {
    spec.pass_exit_status = *config.pass_exit_status;
    spec.pass_exit_status_given = true;
  } else {
    spec.pass_exit_status = PassExitStatusIn(spec.base_options);
  }
  return spec;
}

}  // namespace simrun
