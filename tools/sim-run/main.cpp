// sim-run: explores seeds of a whole program built with sim-clang++, one
// process per seed.
//
//   sim-run [--seeds N] [--start K] [--strategy S] [--schedule S] [--jobs J]
//           [--timeout SECONDS | --no-timeout] [--keep-going] [--report-json PATH]
//           [--no-fork-server] -- PROG [ARGS...]
//
// Runs PROG with SIM_OPTIONS=seed=K (plus the user's SIM_OPTIONS and
// --strategy) for K in [start, start + N), J processes at a time, and prints
// either "sim-run: N seeds passed" or the lowest failing seed, the command
// that replays it and that run's report. The lowest failing seed does not
// depend on J: a failure is reported only once every lower seed has ended.
//
// A seed's process is forked by a fork server (fork_server.h: PROG started
// once per job, static initialisation done once) when PROG supports it, and
// spawned otherwise, with --no-fork-server, or when its job's server is gone
// (a note on stderr says so, and the seed it was running runs again).
//
// The phases of a run: parse the command line, check the program, then loop
// (launch up to J seeds, collect those that ended, kill those past --timeout
// or beyond a failure, wait for the next child to end), then summarise.
// Exit status: 0 every seed passed, 1 a seed failed, 2 usage error.
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "child.h"
#include "fork_server.h"
#include "json.h"

namespace simrun {
namespace {

constexpr int kExitPassed = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr const char* kUsage =
    "usage: sim-run [--seeds N] [--start K] [--strategy S] [--schedule S] [--[no-]shrink] [--jobs J]\n"
    "               [--timeout SECONDS | --no-timeout] [--no-fork-server]\n"
    "               [--keep-going] [--report-json PATH] [--pass-exit-status N] -- PROG [ARGS...]\n"
    "Runs PROG (built with sim-clang++) once per seed K in [start, start+N) with\n"
    "SIM_OPTIONS=seed=K, J at a time, and reports the lowest failing seed.\n"
    "  --seeds N          seeds to run (default 100)\n"
    "  --start K          first seed (default 0)\n"
    "  --strategy S       SIM_OPTIONS strategy: random | pct:D | pos | dfs:P | portfolio[:S,...] | replay:<schedule>\n"
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

using Clock = std::chrono::steady_clock;

// A seed of a test program takes milliseconds; one still running after a
// minute is waiting for something outside the world (README, known limits),
// and without a default sim-run would wait with it forever.
constexpr const char* kDefaultTimeout = "60";  // seconds, as --timeout takes them

struct Config {
  std::uint64_t seeds = 100;
  std::uint64_t start = 0;
  std::string strategy;
  std::string schedule;
  std::string shrink;  // "1", "0", or empty: the program's default (shrink on)
  unsigned jobs = 0;
  std::optional<double> timeout_seconds = std::strtod(kDefaultTimeout, nullptr);
  std::string timeout_text = kDefaultTimeout;
  bool keep_going = false;
  std::string report_json_path;
  bool fork_server = true;
  std::optional<int> pass_exit_status;
  std::vector<std::string> command;  // PROG ARGS...
};

[[noreturn]] void UsageError(const std::string& message) {
  std::fprintf(stderr, "sim-run: %s\n%s", message.c_str(), kUsage);
  std::exit(kExitUsage);
}

std::uint64_t ParseCount(const std::string& flag, const std::string& text, std::uint64_t minimum) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) {
    UsageError("bad number for " + flag + ": '" + text + "' (expected a whole number >= " +
               std::to_string(minimum) + ")");
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

Config ParseCommandLine(int argc, char** argv) {
  Config config;
  bool seeds_given = false;
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
      seeds_given = true;
    } else if (is(arg, "--start")) {
      config.start = ParseCount("--start", value_of("--start", arg), 0);
    } else if (is(arg, "--strategy")) {
      config.strategy = value_of("--strategy", arg);
      if (config.strategy.empty()) UsageError("--strategy needs a value: random | pct:D | pos | dfs:P | portfolio[:S,S,...] | replay:<schedule>");
    } else if (is(arg, "--schedule")) {
      config.schedule = value_of("--schedule", arg);
      if (config.schedule.empty()) UsageError("--schedule needs a value: a printed schedule (S1-...) or @FILE");
      if (!seeds_given) config.seeds = 1;  // a schedule is one execution
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
      if (status > 255) UsageError("bad number for --pass-exit-status: '" + std::to_string(status) + "' (an exit status is 0 to 255)");
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

// A scratch directory whose path can sit in SIM_OPTIONS (no separators in it).
// Every seed creates and deletes two small files there; without a $TMPDIR,
// /dev/shm (tmpfs) is preferred to a disk file system, where creating that
// many inodes a second costs more than the rest of a seed.
std::string MakeScratchDir() {
  std::vector<std::string> bases;
  if (const char* tmpdir = std::getenv("TMPDIR"); tmpdir != nullptr && *tmpdir != '\0') {
    bases.emplace_back(tmpdir);
  } else {
    bases.emplace_back("/dev/shm");
  }
  bases.emplace_back("/tmp");
  for (const std::string& base : bases) {
    if (base.find_first_of(":, \t\n") != std::string::npos) continue;
    std::string path = base + "/sim-run.XXXXXX";
    if (mkdtemp(path.data()) != nullptr) return path;
  }
  std::fprintf(stderr, "sim-run: cannot create a scratch directory in $TMPDIR or /tmp: %s\n", std::strerror(errno));
  std::exit(kExitUsage);
}

struct Running {
  pid_t pid = -1;           // -1 while its fork server has not said it started
  int server = -1;          // the fork server that forked it, or -1: spawned here
  Clock::time_point deadline;
  bool timed_out = false;   // killed by us for outliving --timeout
  bool discarded = false;   // killed by us because a lower seed failed
};

class Explorer {
 public:
  Explorer(const Config& config, LaunchSpec spec, bool fork_servers)
      : config_(config), spec_(std::move(spec)), fork_servers_(fork_servers) {}

  // Runs the seeds; returns the failing seeds' outcomes (lowest first).
  // `signals` is a signalfd for the blocked SIGCHLD and termination signals.
  std::map<std::uint64_t, Outcome> Run(int signals) {
    std::uint64_t next = config_.start;
    const std::uint64_t end = config_.start + config_.seeds;
    for (;;) {
      while (!stopping() && running_.size() < config_.jobs && next < end) Launch(next++);
      if (running_.empty()) break;
      const bool reaped = ReapEnded();
      const bool replied = ReadServerReplies();
      if (stopping()) DiscardAboveLowestFailure();
      KillTimedOut();
      if (!reaped && !replied) Wait(signals);
    }
    servers_.clear();
    seeds_run_ = stopping() ? failures_.begin()->first - config_.start + 1 : config_.seeds;
    return std::move(failures_);
  }

  std::uint64_t seeds_run() const { return seeds_run_; }

  // Kills every child's process group and every fork server (whose
  // children die with it) (on SIGINT/SIGTERM/SIGHUP).
  void KillAll() {
    for (const auto& [seed, child] : running_) {
      if (child.pid > 0) kill(-child.pid, SIGKILL);
    }
    for (const Server& server : servers_) kill(server.process->pid(), SIGKILL);
  }

 private:
  struct Server {
    std::unique_ptr<ForkServer> process;
    std::optional<std::uint64_t> seed;  // the seed it is serving
  };

  bool stopping() const { return !config_.keep_going && !failures_.empty(); }

  void Launch(std::uint64_t seed) {
    Running child;
    if (config_.timeout_seconds) {
      child.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(*config_.timeout_seconds));
    }
    if (const int index = IdleServer(); index >= 0) {
      if (servers_[index].process->Submit(spec_, seed)) {
        child.server = index;
        servers_[index].seed = seed;
        running_[seed] = child;
        return;
      }
      NoteServerGone(index, nullptr);
    }
    child.pid = Spawn(seed);
    running_[seed] = child;
    by_pid_[child.pid] = seed;
  }

  pid_t Spawn(std::uint64_t seed) {
    const pid_t pid = SpawnSeed(spec_, seed);
    if (pid < 0) {
      std::fprintf(stderr, "sim-run: cannot start %s for seed %llu: %s\n", spec_.program_path.c_str(),
                   static_cast<unsigned long long>(seed), std::strerror(errno));
      KillAll();
      std::exit(kExitUsage);
    }
    return pid;
  }

  // A fork server with no seed, started if there are fewer than --jobs; -1
  // when seeds are to be spawned.
  int IdleServer() {
    if (!fork_servers_) return -1;
    for (std::size_t i = 0; i < servers_.size(); ++i) {
      if (!servers_[i].process->gone() && !servers_[i].seed) return static_cast<int>(i);
    }
    if (servers_.size() >= config_.jobs) return -1;
    std::string error;
    std::unique_ptr<ForkServer> server = ForkServer::Start(spec_, servers_.size(), &error);
    if (!server) {
      std::fprintf(stderr, "sim-run: note: no fork server (%s); spawning a process per seed\n", error.c_str());
      fork_servers_ = false;
      return -1;
    }
    servers_.push_back({std::move(server), std::nullopt});
    return static_cast<int>(servers_.size() - 1);
  }

  // Reaps every spawned child that has ended (and any fork server that
  // exited); true when a seed ended.
  bool ReapEnded() {
    bool reaped = false;
    for (;;) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      const auto seed_it = by_pid_.find(pid);
      if (seed_it == by_pid_.end()) {
        for (Server& server : servers_) {
          if (server.process->pid() == pid) server.process->SetWaitStatus(status);
        }
        continue;
      }
      reaped = true;
      const std::uint64_t seed = seed_it->second;
      by_pid_.erase(seed_it);
      Finish(seed, status);
    }
    return reaped;
  }

  // Takes what the fork servers said; true when a seed ended.
  bool ReadServerReplies() {
    bool ended = false;
    for (std::size_t i = 0; i < servers_.size(); ++i) {
      Server& server = servers_[i];
      if (server.process->gone()) continue;
      for (const ForkServer::Event& event : server.process->ReadReplies()) {
        switch (event.kind) {
          case ForkServer::Event::Kind::kStarted: {
            if (!server.seed) break;
            Running& child = running_.at(*server.seed);
            child.pid = event.child;
            if (child.timed_out || child.discarded) kill(-child.pid, SIGKILL);
            break;
          }
          case ForkServer::Event::Kind::kEnded: {
            if (!server.seed) break;
            const std::uint64_t seed = *server.seed;
            server.seed.reset();
            Finish(seed, event.wait_status);
            ended = true;
            break;
          }
          case ForkServer::Event::Kind::kGone:
            ended |= ServerGone(i);
            break;
        }
      }
    }
    return ended;
  }

  // A seed's process has ended with `status`: classify it, clean up.
  void Finish(std::uint64_t seed, int status) {
    const Running child = running_[seed];
    running_.erase(seed);
    // The child's own process is gone; anything it left in its group goes too.
    if (child.pid > 0) kill(-child.pid, SIGKILL);
    if (!child.discarded) {
      Outcome outcome = ClassifyExit(spec_, seed, status, child.timed_out, config_.timeout_text);
      if (!outcome.passed) failures_.emplace(seed, std::move(outcome));
    }
    unlink(ReportJsonPath(spec_, seed).c_str());
    unlink(StderrPath(spec_, seed).c_str());
  }

  // Server `index` closed its socket. Its seed, unless sim-run was stopping
  // it anyway, runs again in a spawned process; true when the seed ended.
  bool ServerGone(std::size_t index) {
    Server& server = servers_[index];
    if (!server.seed) {
      NoteServerGone(index, nullptr);
      return false;
    }
    const std::uint64_t seed = *server.seed;
    server.seed.reset();
    Running& child = running_.at(seed);
    if (child.pid > 0) kill(-child.pid, SIGKILL);
    if (child.discarded || child.timed_out) {  // killed (with its server) by us
      Finish(seed, 0);
      return true;
    }
    NoteServerGone(index, &seed);
    child.server = -1;
    child.pid = Spawn(seed);
    by_pid_[child.pid] = seed;
    return false;
  }

  void NoteServerGone(std::size_t index, const std::uint64_t* seed) {
    ForkServer& server = *servers_[index].process;
    const std::string why = server.DescribeEnd();
    if (server.refused()) {
      if (fork_servers_) {
        std::fprintf(stderr, "sim-run: note: %s %s; spawning a process per seed instead\n",
                     spec_.program_path.c_str(), why.c_str());
      }
      fork_servers_ = false;
    } else {
      std::fprintf(stderr, "sim-run: note: the fork server of %s (pid %d) %s", spec_.program_path.c_str(),
                   static_cast<int>(server.pid()), why.c_str());
      if (seed != nullptr) {
        std::fprintf(stderr, " while it ran seed %llu; that seed runs again in a process of its own",
                     static_cast<unsigned long long>(*seed));
      }
      std::fprintf(stderr, ", and its job spawns a process per seed from now on\n");
    }
  }

  // Seeds above the lowest failure cannot change the answer once every seed
  // below it has ended; stop them early.
  void DiscardAboveLowestFailure() {
    const std::uint64_t lowest = failures_.begin()->first;
    for (auto& [seed, child] : running_) {
      if (seed > lowest && !child.discarded) {
        child.discarded = true;
        if (child.pid > 0) kill(-child.pid, SIGKILL);  // else when its server says it started
      }
    }
  }

  void KillTimedOut() {
    if (!config_.timeout_seconds) return;
    const Clock::time_point now = Clock::now();
    for (auto& [seed, child] : running_) {
      if (!child.timed_out && !child.discarded && now >= child.deadline) {
        child.timed_out = true;
        if (child.pid > 0) {
          kill(-child.pid, SIGKILL);
        } else {
          // Not started yet (its server is still in static initialisation,
          // say): the server goes, and the seed with it.
          servers_[child.server].process->Kill();
        }
      }
    }
  }

  // Sleeps until a child ends (SIGCHLD), a fork server replies, the next
  // deadline passes, or a termination signal arrives (then kills the
  // children and re-raises it).
  void Wait(int signals) {
    long long wait_ms = 1000;
    if (config_.timeout_seconds) {
      Clock::time_point earliest = Clock::time_point::max();
      for (const auto& [seed, child] : running_) {
        if (!child.timed_out && !child.discarded) earliest = std::min(earliest, child.deadline);
      }
      if (earliest != Clock::time_point::max()) {
        const auto left = std::max(Clock::duration::zero(), earliest - Clock::now());
        // +1 ms so the deadline has passed when we wake; at most 1 s at a time.
        wait_ms = std::min<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count() + 1, 1000);
      }
    }
    std::vector<pollfd> fds{{signals, POLLIN, 0}};
    for (const Server& server : servers_) {
      if (!server.process->gone()) fds.push_back({server.process->socket_fd(), POLLIN, 0});
    }
    if (poll(fds.data(), fds.size(), static_cast<int>(wait_ms)) <= 0 || (fds[0].revents & POLLIN) == 0) return;
    signalfd_siginfo info;
    while (read(signals, &info, sizeof info) == sizeof info) {
      const int signal_number = static_cast<int>(info.ssi_signo);
      if (signal_number == SIGCHLD) continue;
      KillAll();
      std::error_code ignored;
      std::filesystem::remove_all(spec_.scratch_dir, ignored);
      signal(signal_number, SIG_DFL);
      sigset_t just_this;
      sigemptyset(&just_this);
      sigaddset(&just_this, signal_number);
      sigprocmask(SIG_UNBLOCK, &just_this, nullptr);
      raise(signal_number);
      std::_Exit(128 + signal_number);
    }
  }

  const Config& config_;
  const LaunchSpec spec_;
  bool fork_servers_;
  std::vector<Server> servers_;
  std::map<std::uint64_t, Running> running_;
  std::map<pid_t, std::uint64_t> by_pid_;
  std::map<std::uint64_t, Outcome> failures_;
  std::uint64_t seeds_run_ = 0;
};

void WriteReportJson(const Config& config, const LaunchSpec& spec, std::uint64_t seeds_run,
                     const std::map<std::uint64_t, Outcome>& failures) {
  std::string json = "{\"verdict\": ";
  // One vocabulary with the runtime's report JSON: "pass", or the lowest
  // failing seed's verdict (its kind, below).
  json += failures.empty() ? std::string("\"pass\"") : JsonString(failures.begin()->second.kind);
  json += ", \"seeds_run\": " + std::to_string(seeds_run);
  json += ", \"first_seed\": " + std::to_string(config.start);
  char timeout[32] = "null";
  if (config.timeout_seconds) std::snprintf(timeout, sizeof timeout, "%g", *config.timeout_seconds);
  json += ", \"timeout_seconds\": " + std::string(timeout);
  json += ", \"failure\": ";
  if (failures.empty()) {
    json += "null";
  } else {
    const auto& [seed, outcome] = *failures.begin();
    json += "{\"seed\": " + std::to_string(seed);
    json += ", \"kind\": " + JsonString(outcome.kind);
    json += ", \"message\": " + JsonString(outcome.message);
    json += ", \"replay\": " + JsonString(ReplayCommand(spec, seed));
    json += ", \"schedule\": " + JsonString(outcome.schedule);
    json += ", \"trace_hash\": " + JsonString(outcome.trace_hash);
    json += ", \"preemptions\": " + (outcome.preemptions.empty() ? std::string("null") : outcome.preemptions);
    json += ", \"preemptions_before_shrink\": " +
            (outcome.preemptions_before_shrink.empty() ? std::string("null") : outcome.preemptions_before_shrink);
    json += "}";
  }
  json += "}\n";
  std::ofstream out(config.report_json_path, std::ios::binary | std::ios::trunc);
  out << json;
  out.close();
  if (!out) {
    std::fprintf(stderr, "sim-run: cannot write --report-json %s: %s\n", config.report_json_path.c_str(),
                 std::strerror(errno));
  }
}

void PrintSummary(const Config& config, const LaunchSpec& spec, const std::map<std::uint64_t, Outcome>& failures) {
  if (failures.empty()) {
    std::printf("sim-run: %llu seeds passed\n", static_cast<unsigned long long>(config.seeds));
    return;
  }
  const auto& [seed, outcome] = *failures.begin();
  std::printf("sim-run: failed at seed %llu (%llu seeds passed first): %s\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed - config.start), outcome.verdict.c_str());
  std::printf("replay: %s\n", ReplayCommand(spec, seed).c_str());
  std::fputs(outcome.report.c_str(), stdout);
  if (!outcome.report.empty() && outcome.report.back() != '\n') std::fputc('\n', stdout);
  if (config.keep_going) {
    std::string list;
    std::size_t shown = 0;
    for (const auto& [failed_seed, failed] : failures) {
      if (++shown > 20) {
        list += ", ...";
        break;
      }
      list += (list.empty() ? "" : ", ") + std::to_string(failed_seed) + " (" + failed.verdict + ")";
    }
    std::printf("sim-run: %zu of %llu seeds failed: %s\n", failures.size(),
                static_cast<unsigned long long>(config.seeds), list.c_str());
  }
}

// pass_exit_status in the user's SIM_OPTIONS (the last one wins, as in the
// runtime's parser), or 0; a malformed value is the runtime's error to name.
int PassExitStatusIn(const std::string& options) {
  int status = 0;
  constexpr std::string_view kKey = "pass_exit_status=";
  for (std::size_t at = options.find(kKey); at != std::string::npos; at = options.find(kKey, at + 1)) {
    if (at != 0 && std::string_view(":, \t\n").find(options[at - 1]) == std::string_view::npos) continue;
    status = std::atoi(options.c_str() + at + kKey.size());
  }
  return status;
}

int Main(int argc, char** argv) {
  const Config config = ParseCommandLine(argc, argv);
  LaunchSpec spec;
  spec.program_path = ResolveProgram(config.command.front());
  spec.argv = config.command;
  if (const char* options = std::getenv("SIM_OPTIONS")) spec.base_options = options;
  spec.strategy = config.strategy;
  spec.schedule = config.schedule;
  spec.shrink = config.shrink;
  if (config.pass_exit_status) {
    spec.pass_exit_status = *config.pass_exit_status;
    spec.pass_exit_status_given = true;
  } else {
    spec.pass_exit_status = PassExitStatusIn(spec.base_options);
  }

  // Children inherit the personality: with address randomisation off here
  // once, none of them re-execs itself to turn it off (whole-program mode
  // does that for determinism), which halves the cost of a seed.
  const int personality_now = personality(0xffffffff);
  if (personality_now != -1) personality(static_cast<unsigned long>(personality_now) | ADDR_NO_RANDOMIZE);

  // Children are reaped on SIGCHLD, read from a signalfd beside the fork
  // servers' sockets; termination signals are taken the same way so the
  // children can be killed first.
  signal(SIGCHLD, SIG_DFL);
  sigset_t waited;
  sigemptyset(&waited);
  for (const int signal_number : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&waited, signal_number);
  sigprocmask(SIG_BLOCK, &waited, nullptr);

  const int signals = signalfd(-1, &waited, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signals < 0) {
    std::fprintf(stderr, "sim-run: signalfd: %s\n", std::strerror(errno));
    return kExitUsage;
  }

  spec.scratch_dir = MakeScratchDir();
  Explorer explorer(config, spec, config.fork_server && SpeaksForkServerProtocol(spec.program_path));
  const std::map<std::uint64_t, Outcome> failures = explorer.Run(signals);
  std::error_code ignored;
  std::filesystem::remove_all(spec.scratch_dir, ignored);

  PrintSummary(config, spec, failures);
  std::fflush(stdout);
  if (!config.report_json_path.empty()) WriteReportJson(config, spec, explorer.seeds_run(), failures);
  return failures.empty() ? kExitPassed : kExitFailed;
}

}  // namespace
}  // namespace simrun

int main(int argc, char** argv) { return simrun::Main(argc, argv); }
