// options.cpp: the lists of options (sim/options.inc, explore/internal_options.inc)
// turned into a parser.
#include "explore/options.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "core/thread_local_switch.h"
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

void ParseValue(std::string_view key, std::string_view value, std::uint64_t& field) {
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), field);
  if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
    throw std::invalid_argument("SIM_OPTIONS: option '" + std::string(key) + "' expects a whole number >= 0, got '" +
                                std::string(value) + "'");
  }
}

void ParseValue(std::string_view, std::string_view value, std::string& field) { field = value; }

void CheckRaceShrink(std::string_view value) {
  if (value != "first" && value != "all") {
    throw std::invalid_argument("SIM_OPTIONS: option 'race_shrink' is first or all, got '" + std::string(value) + "'");
  }
}

std::string ValidKeys() {
  std::string keys = "seed, schedule";
#define SIM_OPTION(type, name, default_value, help) keys += ", " #name;
#include "sim/options.inc"
#undef SIM_OPTION
  return keys + ", help";
}

void ApplyOption(std::string_view key, std::string_view value, Options& options, InternalOptions& internal,
                 bool* help_requested) {
  if (key == "help") {
    if (value != "0" && value != "1") {
      throw std::invalid_argument("SIM_OPTIONS: option 'help' expects 0 or 1, got '" + std::string(value) + "'");
    }
    if (help_requested != nullptr) *help_requested = value == "1";
    return;
  }
  if (key == "seed") {
    ParseValue(key, value, options.first_seed);
    options.seeds = 1;
    return;
  }
  if (key == "schedule") {
    std::string schedule(value);
    if (schedule.starts_with("@")) {
      std::ifstream file(schedule.substr(1));
      if (!file) {
        throw std::invalid_argument("SIM_OPTIONS: option 'schedule': cannot read the file '" + schedule.substr(1) +
                                    "' (schedule=@FILE reads a schedule from FILE)");
      }
      schedule.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
      // A file's trailing newline is not part of the schedule (and would end
      // up inside the quotes of every replay line printed from it).
      const std::size_t first = schedule.find_first_not_of(" \t\r\n");
      const std::size_t last = schedule.find_last_not_of(" \t\r\n");
      schedule = first == std::string::npos ? std::string() : schedule.substr(first, last - first + 1);
    }
    options.strategy = "replay:" + schedule;
    MakeStrategy(options.strategy);  // a malformed schedule is an error now, not at the first execution
    options.seeds = 1;
    return;
  }
#define SIM_OPTION(type, name, default_value, help)   \
  if (key == #name) {                                 \
    ParseValue(key, value, options.name);             \
    if (key == "strategy") MakeStrategy(value);       \
    if (key == "race_shrink") CheckRaceShrink(value); \
    return;                                           \
  }
#include "sim/options.inc"
#undef SIM_OPTION
  // Set by simthread itself (sim-run, whole-program reruns): accepted
  // everywhere SIM_OPTIONS is, though ValidKeys and help leave them out.
#define SIM_OPTION(type, name, default_value, help) \
  if (key == #name) {                               \
    ParseValue(key, value, internal.name);          \
    return;                                         \
  }
#include "explore/internal_options.inc"
#undef SIM_OPTION
  throw std::invalid_argument("SIM_OPTIONS: unknown option '" + std::string(key) + "'; valid options: " + ValidKeys() +
                              " (SIM_OPTIONS=help=1 describes them)");
}

bool IsSeparator(char c) { return c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n'; }

}  // namespace

void ApplyOptionString(std::string_view text, Options& options, bool* help_requested, InternalOptions* internal) {
  // Split into pieces, keeping each piece's leading separator, then glue
  // '='-less pieces onto the value before them.
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t position = 0;
  while (position < text.size()) {
    while (position < text.size() && IsSeparator(text[position])) ++position;
    if (position >= text.size()) break;
    const char separator = position > 0 ? text[position - 1] : ':';
    std::size_t end = position;
    while (end < text.size() && !IsSeparator(text[end])) ++end;
    const std::string_view piece = text.substr(position, end - position);
    const std::size_t equals = piece.find('=');
    if (equals == std::string_view::npos) {
      if (pairs.empty()) {
        throw std::invalid_argument("SIM_OPTIONS: '" + std::string(piece) +
                                    "' is not key=value; valid options: " + ValidKeys());
      }
      // Whitespace inside a value (a wrapped schedule) is dropped; ':' and ',' are kept.
      if (separator == ':' || separator == ',') pairs.back().second += separator;
      pairs.back().second += piece;
    } else {
      pairs.emplace_back(std::string(piece.substr(0, equals)), std::string(piece.substr(equals + 1)));
    }
    position = end;
  }
  InternalOptions dropped;
  for (const auto& [key, value] : pairs) {
    ApplyOption(key, value, options, internal != nullptr ? *internal : dropped, help_requested);
  }
}

void ApplyEnvironmentOptions(Options& options, InternalOptions* internal) {
  const char* text = std::getenv("SIM_OPTIONS");
  if (text == nullptr) return;
  bool help = false;
  ApplyOptionString(text, options, &help, internal);
  if (help) {
    std::fputs(OptionsHelp().c_str(), stderr);
    std::fprintf(stderr, "in this process: %s\n", DescribeTlsSwitch(options.tls_switch).c_str());
    std::exit(0);
  }
}

std::string OptionsHelp() {
  std::string text = "simthread options (SIM_OPTIONS=key=value:key=value, or --sim_key=value in tests):\n";
  auto row = [&text](const char* name, const char* type, const std::string& default_value, const char* help) {
    char columns[128];
    // Wide enough for the longest name (check_determinism), so columns line
    // up; docs/options.md is generated from this text. The help text is
    // appended whole: a fixed buffer cut long ones and ran the next row on.
    std::snprintf(columns, sizeof columns, "  %-17s %-6s default %-7s  ", name, type,
                  default_value.empty() ? "\"\"" : default_value.c_str());
    text += columns;
    text += help;
    text += '\n';
  };
  row("seed", "uint64", "-", "explore exactly this one seed (first_seed=N, seeds=1)");
  row("schedule", "string", "-",
      "replay this schedule (S1-...) or the one in @FILE exactly (strategy=replay:..., seeds=1)");
  const Options defaults;
#define SIM_OPTION_TO_TEXT_uint64(value) std::to_string(value)
#define SIM_OPTION_TO_TEXT_string(value) std::string(value)
#define SIM_OPTION(type, name, default_value, help) row(#name, #type, SIM_OPTION_TO_TEXT_##type(defaults.name), help);
#include "sim/options.inc"
#undef SIM_OPTION
  row("help", "bool", "0", "print this list and exit");
  return text;
}

}  // namespace sim::internal
