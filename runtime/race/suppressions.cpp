// suppressions.cpp: see suppressions.h.
#include "race/suppressions.h"

#include <array>

namespace sim::internal {
namespace {

// `pattern` (no anchors left) against the whole of `name`, `*` matching any run.
bool GlobMatches(std::string_view pattern, std::string_view name) {
  std::size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string_view Trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

bool SuppressionPatternMatches(std::string_view pattern, std::string_view name) {
  std::string glob;
  if (!pattern.empty() && pattern.front() == '^') {
    pattern.remove_prefix(1);
  } else {
    glob += '*';
  }
  const bool anchored_end = !pattern.empty() && pattern.back() == '$';
  if (anchored_end) pattern.remove_suffix(1);
  glob += pattern;
  if (!anchored_end) glob += '*';
  return GlobMatches(glob, name);
}

RaceSuppressions RaceSuppressions::Parse(std::string_view text, std::string& error) {
  constexpr std::array<std::string_view, 5> kOtherTsanTypes = {"thread", "mutex", "signal", "deadlock",
                                                               "called_from_lib"};
  RaceSuppressions suppressions;
  int line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    line = Trimmed(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    const std::string_view type = colon == std::string_view::npos ? line : line.substr(0, colon);
    const std::string_view pattern = colon == std::string_view::npos ? "" : Trimmed(line.substr(colon + 1));
    const bool race = type == "race" || type == "race_top";
    bool known = race;
    for (std::string_view other : kOtherTsanTypes) known = known || type == other;
    if (!known || colon == std::string_view::npos || pattern.empty()) {
      error = "line " + std::to_string(line_number) + " ('" + std::string(line) +
              "') is not `type:pattern` with a ThreadSanitizer type (race:, race_top:, thread:, mutex:, signal:, "
              "deadlock:, called_from_lib:)";
      return {};
    }
    if (race) suppressions.patterns_.emplace_back(pattern);
  }
  return suppressions;
}

const std::string* RaceSuppressions::Match(std::string_view function, std::string_view file) const {
  for (const std::string& pattern : patterns_) {
    if ((!function.empty() && SuppressionPatternMatches(pattern, function)) ||
        (!file.empty() && SuppressionPatternMatches(pattern, file))) {
      return &pattern;
    }
  }
  return nullptr;
}

}  // namespace sim::internal
