// command_line.h: what the user asked sim-run for: the flags, their checks,
// the usage text, and the program to run (resolved as a shell would) with
// the SIM_OPTIONS every seed's process starts from. A mistake in any of them
// is a usage error: the message, the usage text, exit status 2.
#ifndef SIM_TOOLS_SIM_RUN_COMMAND_LINE_H_
#define SIM_TOOLS_SIM_RUN_COMMAND_LINE_H_

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "child.h"
#include "common/exit_status.h"

namespace simrun {

// sim-run's exit statuses, as the usage text promises them.
constexpr int kExitPassed = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = sim::exit_status::kUsage;

// A seed of a test program takes milliseconds; one still running after a
// minute is waiting for something outside the world (README, known limits),
// and without a default sim-run would wait with it forever.
constexpr const char* kDefaultTimeout = "60";  // seconds, as --timeout takes them

struct Config {
  std::uint64_t seeds = 100;
  bool seeds_given = false;  // with --strategy dfs:P, --seeds bounds the schedules
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

// The flags of `argv`; prints the usage text and exits on --help (status 0)
// or a usage error (status 2). `jobs` is filled in (default: cores).
Config ParseCommandLine(int argc, char** argv);

// What every seed's process shares, as `config` and the environment ask:
// the program resolved (a usage error when there is none to run), the
// user's SIM_OPTIONS, and the flags that go into each seed's SIM_OPTIONS.
// The scratch directory is left for the caller to make.
LaunchSpec LaunchSpecFor(const Config& config);

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_COMMAND_LINE_H_
