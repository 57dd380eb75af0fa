// explore_driver.cpp: runs one bug program under sim::explore, in process.
//
// The program's own `int main()` is compiled as `bug_main` (-Dmain=bug_main)
// and linked with this file, so one process explores thousands of
// executions instead of starting a process per seed. A non-zero return from
// bug_main is a failure; deadlocks, crashes and step limits are explore()'s
// own verdicts. What the numbers mean is bug_finding.py's business. The
// race detector is off (races=0; SIM_OPTIONS=races=1 turns it on): the
// tables count each bug's own failure, and many of the bugs are data races
// the detector would report first (bench/race_finding.py measures those).
//
//   PROG [--strategy S] [--first-seed K] [--seeds N] [--starts R] [--stride D]
//        [--shrink 0|1] [--report]
//
// Start r (0 <= r < R) explores seeds [K + r*D, K + r*D + N). Only the first
// start that finds a failure shrinks it (with --shrink 1), so a table row pays
// for one shrink. One line per start on stdout:
//   start=K found=1 seed=S tried=T verdict=V preemptions=P before=B candidates=C trace_hash=H schedule=X
//   start=K found=0 tried=T exhausted=0|1
// `tried` counts executions up to and including the failing one; for dfs:P
// it is the schedules run, and exhausted=1 means every schedule with at most
// P preemptions ran without a failure. --report also writes each failure's
// report to stderr. Exit status 0, or 2 for a bad flag or option (an unknown
// strategy, say), with the reason on stderr.
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "sim/sim.h"

int bug_main();

namespace {

struct Arguments {
  sim::Options options;
  std::uint64_t starts = 1;
  std::uint64_t stride = 1000000;
  bool report = false;
};

[[noreturn]] void Usage(const char* problem) {
  std::fprintf(stderr,
               "explore_driver: %s\nusage: PROG [--strategy S] [--first-seed K] [--seeds N] [--starts R] "
               "[--stride D] [--shrink 0|1] [--report]\n",
               problem);
  std::exit(2);
}

std::uint64_t ParseCount(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') Usage((std::string(flag) + " needs a whole number, got '" + text + "'").c_str());
  return value;
}

Arguments Parse(int argc, char** argv) {
  Arguments arguments;
  arguments.options.diff = 0;  // the table needs the seed, not where it departs from a passing one
  // The bug's own failure, not a race before it (see the top of this file).
  arguments.options.races = 0;
  // The table reports what shrinking reaches, not how fast: shrinking under
  // pos needs 74,174 replays to take treiber_stack_aba from 16 preemptions
  // to 3, past the default bound of 10,000. A bound of candidates, not
  // time, so the result is the same on a loaded machine (a 5 s wall-clock
  // budget once left it at 23); the wall-clock cap stays a safety net.
  arguments.options.shrink_candidates = 1000000;
  arguments.options.shrink_budget_ms = 120000;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--report") {
      arguments.report = true;
      continue;
    }
    if (i + 1 >= argc) Usage((flag + " needs a value").c_str());
    const char* value = argv[++i];
    if (flag == "--strategy") {
      arguments.options.strategy = value;
    } else if (flag == "--first-seed") {
      arguments.options.first_seed = ParseCount(argv[i - 1], value);
    } else if (flag == "--seeds") {
      arguments.options.seeds = ParseCount(argv[i - 1], value);
    } else if (flag == "--starts") {
      arguments.starts = ParseCount(argv[i - 1], value);
    } else if (flag == "--stride") {
      arguments.stride = ParseCount(argv[i - 1], value);
    } else if (flag == "--shrink") {
      arguments.options.shrink = ParseCount(argv[i - 1], value);
    } else {
      Usage(("unknown flag '" + flag + "'").c_str());
    }
  }
  return arguments;
}

// explore() tells an exhausted dfs search only on stderr, and the programs
// print their own failure messages there at every failing execution:
// collect both in a file and keep the one line this driver needs.
class CapturedStderr {
 public:
  CapturedStderr() : file_(std::tmpfile()), saved_(dup(STDERR_FILENO)) {
    if (file_ == nullptr || saved_ < 0) throw std::runtime_error("explore_driver: cannot capture stderr");
    std::fflush(stderr);
    dup2(fileno(file_), STDERR_FILENO);
  }
  ~CapturedStderr() {
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    std::fclose(file_);
  }
  std::string Text() {
    std::fflush(stderr);
    std::rewind(file_);
    std::string text;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text.append(buffer, n);
    return text;
  }

 private:
  std::FILE* file_;
  int saved_;
};

}  // namespace

int main(int argc, char** argv) try {
  const Arguments arguments = Parse(argc, argv);
  bool shrunk_one = false;
  auto body = [] {
    const int status = bug_main();
    if (status != 0) sim::fail("main returned " + std::to_string(status));
  };
  for (std::uint64_t start = 0; start < arguments.starts; ++start) {
    sim::Options options = arguments.options;
    options.first_seed += start * arguments.stride;
    if (shrunk_one) options.shrink = 0;
    std::optional<sim::Report> report;
    std::uint64_t schedules_when_exhausted = 0;
    {
      CapturedStderr captured;
      report = sim::explore(body, options);
      // "simthread: dfs:P: no failure in any schedule with <= P preemptions: N schedules"
      const std::string text = captured.Text();
      const std::size_t at = text.find("no failure in any schedule");
      if (!report && at != std::string::npos) {
        schedules_when_exhausted = std::strtoull(text.c_str() + text.find(": ", at) + 2, nullptr, 10);
      }
    }
    if (report) {
      shrunk_one = true;
      std::printf("start=%" PRIu64 " found=1 seed=%" PRIu64 " tried=%" PRIu64
                  " verdict=%s preemptions=%" PRIu64 " before=%" PRIu64 " candidates=%" PRIu64
                  " trace_hash=%016" PRIx64 " schedule=%s\n",
                  options.first_seed, report->seed, report->seeds_passed + 1,
                  std::string(sim::to_string(report->verdict)).c_str(), report->preemptions,
                  report->preemptions_before_shrink, report->shrink_candidates, report->trace_hash,
                  report->schedule.c_str());
      if (arguments.report) std::fprintf(stderr, "%s", report->render().c_str());
    } else {
      const bool exhausted = schedules_when_exhausted != 0;
      std::printf("start=%" PRIu64 " found=0 tried=%" PRIu64 " exhausted=%d\n", options.first_seed,
                  exhausted ? schedules_when_exhausted : options.seeds, exhausted ? 1 : 0);
    }
    std::fflush(stdout);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "explore_driver: %s\n", error.what());
  return 2;
}
