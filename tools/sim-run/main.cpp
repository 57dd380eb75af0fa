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
// With --strategy dfs:P it runs one process, which searches every schedule
// with at most P preemptions (at most --seeds of them, when given), one
// process per schedule, and prints how many it ran or the failing one.
//
// The phases of a run: parse the command line, check the program
// (command_line.h), set up this process (below), then loop (explorer.h:
// launch up to J seeds, collect those that ended, kill those past --timeout
// or beyond a failure, wait for the next child to end), then summarise
// (summary.h).
// Exit status: 0 every seed passed, 1 a seed failed, 2 usage error.
#include <signal.h>
#include <stdlib.h>
#include <sys/personality.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "command_line.h"
#include "explorer.h"
#include "fork_server.h"
#include "summary.h"

namespace simrun {
namespace {

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

// --keep-going: the lowest failing seed's report is the one printed, and
// when a higher seed, running beside it, claimed its race first, its own
// process told it in a few lines (known_failures.h): it is run once more,
// alone, to tell it in full, as a sweep with --jobs 1 would have.
void TellLowestFailure(const LaunchSpec& spec, std::uint64_t seed, Outcome& outcome) {
  if (spec.known_failures_dir.empty() || outcome.failure_signature.empty()) return;
  std::ifstream claim(spec.known_failures_dir + "/" + outcome.failure_signature);
  std::uint64_t told_by = 0;
  if (!(claim >> told_by) || told_by == seed) return;
  LaunchSpec alone = spec;
  alone.known_failures_dir.clear();
  const pid_t pid = SpawnSeed(alone, seed, outcome.pct_choice_points);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return;
  kill(-pid, SIGKILL);  // whatever it left in its process group
  Outcome told = ClassifyExit(alone, seed, status, /*timed_out=*/false, "");
  told.pct_choice_points = outcome.pct_choice_points;
  if (!told.passed) outcome = std::move(told);
}

int Main(int argc, char** argv) {
  const Config config = ParseCommandLine(argc, argv);
  LaunchSpec spec = LaunchSpecFor(config);

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
  // A bounded search is one process that runs every schedule (each killed
  // after --timeout by that process), however long the search takes.
  Config run = config;
  if (!spec.bounded_search.empty()) {
    run.seeds = 1;
    run.timeout_seconds.reset();
  }
  if (config.keep_going && spec.bounded_search.empty()) {
    spec.known_failures_dir = spec.scratch_dir + "/known_failures";
    if (mkdir(spec.known_failures_dir.c_str(), 0700) != 0) spec.known_failures_dir.clear();  // each seed tells its own
  }
  Explorer explorer(run, spec, config.fork_server && SpeaksForkServerProtocol(spec.program_path));
  std::map<std::uint64_t, Outcome> failures = explorer.Run(signals);
  if (!failures.empty()) TellLowestFailure(spec, failures.begin()->first, failures.begin()->second);
  std::error_code ignored;
  std::filesystem::remove_all(spec.scratch_dir, ignored);

  const Outcome* search = explorer.search_outcome() ? &*explorer.search_outcome() : nullptr;
  PrintSummary(config, spec, failures, search);
  std::fflush(stdout);
  if (!config.report_json_path.empty()) WriteReportJson(config, spec, explorer.seeds_run(), failures, search);
  return failures.empty() ? kExitPassed : kExitFailed;
}

}  // namespace
}  // namespace simrun

int main(int argc, char** argv) { return simrun::Main(argc, argv); }
