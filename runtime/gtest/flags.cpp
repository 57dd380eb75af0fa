// flags.cpp: --sim_* flags on top of SIM_OPTIONS (flags.h).
#include "gtest/flags.h"

#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "core/thread_local_switch.h"
#include "explore/isolated_execution.h"
#include "explore/options.h"
#include "explore/replay_command.h"

namespace sim::internal {
namespace {

constexpr std::string_view kPrefix = "--sim_";

// Internal keys are accepted, as in SIM_OPTIONS, though ValidFlags and
// --sim_help leave them out.
bool IsOptionKey(std::string_view key) {
  if (key == "seed") return true;
#define SIM_OPTION(type, name, default_value, help) \
  if (key == #name) return true;
#include "explore/internal_options.inc"
#include "sim/options.inc"
#undef SIM_OPTION
  return false;
}

std::string ValidFlags() {
  std::string flags = "--sim_replay=SEED, --sim_schedule=STRING, --sim_help, --sim_seed=N";
#define SIM_OPTION(type, name, default_value, help) flags += ", --sim_" #name "=...";
#include "sim/options.inc"
#undef SIM_OPTION
  return flags;
}

[[noreturn]] void Bad(std::string_view argument, const std::string& why) {
  throw std::invalid_argument("bad flag '" + std::string(argument) + "': " + why);
}

std::string WithoutOptionsPrefix(std::string message) {
  constexpr std::string_view kOptionsPrefix = "SIM_OPTIONS: ";
  if (message.starts_with(kOptionsPrefix)) message.erase(0, kOptionsPrefix.size());
  return message;
}

}  // namespace

TestSettings ParseTestSettings(int* argc, char** argv) {
  TestSettings settings;
  if (const char* environment = std::getenv("SIM_OPTIONS")) {
    ApplyOptionString(environment, settings.options, &settings.help);
  }
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view argument = argv[i];
    if (!argument.starts_with("--sim")) {
      argv[kept++] = argv[i];
      continue;
    }
    if (!argument.starts_with(kPrefix)) {
      Bad(argument, "simthread flags start with --sim_ (an underscore); valid flags: " + ValidFlags());
    }
    const std::size_t equals = argument.find('=');
    const std::string_view key = argument.substr(
        kPrefix.size(), equals == std::string_view::npos ? std::string_view::npos : equals - kPrefix.size());
    const std::string_view value = equals == std::string_view::npos ? std::string_view() : argument.substr(equals + 1);
    if (key == "help") {
      settings.help = true;
    } else if (key != "replay" && key != "schedule" && !IsOptionKey(key)) {
      Bad(argument, "unknown simthread flag '--sim_" + std::string(key) + "'; valid flags: " + ValidFlags() +
                        " (--sim_help describes them)");
    } else if (equals == std::string_view::npos) {
      Bad(argument, "expects a value: --sim_" + std::string(key) + "=VALUE");
    } else if (key == "replay") {
      std::uint64_t seed = 0;
      auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
        Bad(argument, "expects one seed, a whole number >= 0");
      }
      settings.replay_seed = seed;
    } else if (key == "schedule") {
      if (value.empty()) Bad(argument, "expects a schedule as printed in a report (S1-...)");
      settings.schedule = value;
    } else {
      try {
        ApplyOptionString(std::string(key) + "=" + std::string(value), settings.options, &settings.help);
      } catch (const std::invalid_argument& error) {
        Bad(argument, WithoutOptionsPrefix(error.what()));
      }
    }
  }
  argv[kept] = nullptr;
  *argc = kept;
  if (settings.options.seeds == 0)
    throw std::invalid_argument("seeds must be at least 1 (--sim_seeds=N or SIM_OPTIONS=seeds=N)");
  Options resolved = settings.options;
  ResolveIsolation(resolved, "fork");  // throws for a value it does not know
  if (settings.options.chunk == 0)
    throw std::invalid_argument("chunk must be at least 1 (--sim_chunk=N or SIM_OPTIONS=chunk=N)");
  return settings;
}

std::string FlagsHelp() {
  return "simthread flags for SIM_TEST binaries (they override SIM_OPTIONS):\n"
         "  --sim_seeds=N          seeds per SIM_TEST\n"
         "  --sim_first_seed=K     the first seed\n"
         "  --sim_chunk=N          seeds per chunk test (Suite.Name/seeds_<first>_<last>)\n"
         "  --sim_strategy=S       random | pct:D | pos | dfs:P | portfolio[:S,S,...] | replay:<schedule>\n"
         "  --sim_replay=SEED      every selected chunk runs SEED alone and prints how it ended\n"
         "  --sim_schedule=STRING  every selected chunk runs one execution that follows STRING\n"
         "  --sim_<key>=VALUE      any option below\n"
         "  --sim_help             this list\n" +
         OptionsHelp() + "in this process: " + DescribeTlsSwitch(Options().tls_switch) + "\n";
}

std::string OptionsAsFlags(const Options& options) {
  std::string flags;
  const Options defaults;
  auto add_if_changed = [&flags](std::string_view key, const auto& value, const auto& default_value) {
    // One seed alone runs the same execution in a process of its own or not.
    if (key == "report_json" || key == "isolate" || value == default_value) return;
    std::string text;
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>) {
      text = value;
    } else {
      text = std::to_string(value);
    }
    flags += " " + ShellQuote("--sim_" + std::string(key) + "=" + text);
  };
#define SIM_OPTION(type, name, default_value, help) add_if_changed(#name, options.name, defaults.name);
#include "sim/options.inc"
#undef SIM_OPTION
  return flags;
}

}  // namespace sim::internal
