// replay_command.cpp: SIM_OPTIONS for one seed, and the process's command line.
#include "explore/replay_command.h"

#include <fcntl.h>
#include <unistd.h>

namespace sim::internal {

namespace {

// This process's command line, shell-quoted, each word after a space: read
// once. explore() names a seed's replay before every execution whose
// strategy spec changed (the crash guard's command), and reading
// /proc/self/cmdline each time was a tenth of an execution of 2 threads'
// 10 locked increments.
const std::string& QuotedCommandLine() {
  static const std::string quoted = [] {
    std::string words;
    const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return words;
    std::string cmdline;
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) cmdline.append(buffer, n);
    close(fd);
    for (std::size_t start = 0; start < cmdline.size();) {
      const std::size_t end = cmdline.find('\0', start);
      words += " " + ShellQuote(cmdline.substr(start, end - start));
      start = end == std::string::npos ? cmdline.size() : end + 1;
    }
    return words;
  }();
  return quoted;
}

// `name_schedule`: a replayed schedule is the whole execution, and the seed
// picks nothing, so the command names the schedule instead (as schedule=
// was given); without it, the seed and strategy=replay:... as they are.
std::string ReplayCommandNaming(const Options& effective, std::uint64_t seed, bool name_schedule,
                                std::string_view forced) {
  constexpr std::string_view kReplay = "replay:";
  const bool schedule = name_schedule && effective.strategy.starts_with(kReplay);
  std::string options =
      schedule ? "schedule=" + effective.strategy.substr(kReplay.size()) : "seed=" + std::to_string(seed);
  const Options defaults;
  auto add_if_changed = [&options, schedule, forced](const char* name, const auto& value, const auto& default_value) {
    const std::string_view key = name;
    // Output paths are not part of what is replayed, nor is isolation: one
    // seed alone runs the same execution in a process of its own or not.
    // (Nor are the internal options, which sim::Options does not hold.) A
    // schedule replays without the search that found it (its strategy and
    // its partial-order reduction).
    if (key == "first_seed" || key == "seeds" || key == "report_json" || key == "isolate" ||
        (schedule && (key == "strategy" || key == "por"))) {
      return;
    }
    // A forced option is named once, by `forced`, whatever its default.
    if (value == default_value || forced.find(":" + std::string(key) + "=") != std::string_view::npos) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>) {
      options += ":" + std::string(key) + "=" + value;
    } else {
      options += ":" + std::string(key) + "=" + std::to_string(value);
    }
  };
#define SIM_OPTION(type, name, default_value, help) add_if_changed(#name, effective.name, defaults.name);
#include "sim/options.inc"
#undef SIM_OPTION
  options += forced;

  return "SIM_OPTIONS=" + ShellQuote(options) + QuotedCommandLine();
}

}  // namespace

std::string ReplayCommand(const Options& effective, std::uint64_t seed, std::string_view forced) {
  return ReplayCommandNaming(effective, seed, /*name_schedule=*/true, forced);
}

std::pair<std::string, std::string> ReplayCommandAroundSeed(const Options& effective) {
  // The command starts "SIM_OPTIONS=seed=0" (quoted or not): split after
  // "seed=". A replayed schedule keeps its seed here: the crash guard's
  // short report always prints one.
  const std::string command = ReplayCommandNaming(effective, 0, /*name_schedule=*/false, {});
  const std::size_t seed_at = command.find("seed=0") + 5;
  return {command.substr(0, seed_at), command.substr(seed_at + 1)};
}

}  // namespace sim::internal
