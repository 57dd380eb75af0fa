// schedule.cpp: run-length text encoding of decision lists.
#include "strategy/schedule.h"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace sim::internal {
namespace {

constexpr std::string_view kVersionPrefix = "S1-";

std::string Check(std::string_view body) {
  std::uint32_t hash = 2166136261u;  // FNV-1a 32
  for (unsigned char c : body) {
    hash ^= c;
    hash *= 16777619u;
  }
  char text[8];
  std::snprintf(text, sizeof text, "%04x", (hash ^ (hash >> 16)) & 0xffff);
  return text;
}

std::uint64_t ParseNumber(std::string_view digits, std::string_view what) {
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    throw std::invalid_argument("schedule: malformed " + std::string(what) + " '" + std::string(digits) + "'");
  }
  return value;
}

}  // namespace

std::string EncodeSchedule(const std::vector<std::uint32_t>& decisions) {
  std::string runs;
  for (std::size_t i = 0; i < decisions.size();) {
    std::size_t end = i;
    while (end < decisions.size() && decisions[end] == decisions[i]) ++end;
    if (!runs.empty()) runs += '.';
    runs += std::to_string(decisions[i]);
    if (end - i > 1) runs += "x" + std::to_string(end - i);
    i = end;
  }
  const std::string body = std::to_string(decisions.size()) + "-" + runs;
  return std::string(kVersionPrefix) + body + "-" + Check(body);
}

std::vector<std::uint32_t> DecodeSchedule(std::string_view raw) {
  std::string text;
  for (char c : raw) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') text += c;
  }
  if (!text.starts_with(kVersionPrefix)) {
    if (text.size() > 1 && text[0] == 'S' && text.find('-') != std::string::npos) {
      throw std::invalid_argument("schedule: version '" + text.substr(0, text.find('-')) +
                                  "' is not supported by this simthread (it reads S1); "
                                  "replay it with the simthread that printed it");
    }
    throw std::invalid_argument("schedule: not a simthread schedule (expected it to start with 'S1-')");
  }
  const std::string_view rest = std::string_view(text).substr(kVersionPrefix.size());
  const std::size_t check_dash = rest.rfind('-');
  const std::size_t count_dash = rest.find('-');
  if (check_dash == std::string_view::npos || check_dash == count_dash || rest.size() - check_dash - 1 != 4) {
    throw std::invalid_argument("schedule: truncated (no check digits at the end); copy the whole schedule");
  }
  const std::string_view body = rest.substr(0, check_dash);
  if (Check(body) != rest.substr(check_dash + 1)) {
    throw std::invalid_argument("schedule: the check digits do not match; the schedule was truncated or edited");
  }
  const std::uint64_t count = ParseNumber(body.substr(0, count_dash), "decision count");
  std::vector<std::uint32_t> decisions;
  std::string_view runs = body.substr(count_dash + 1);
  while (!runs.empty()) {
    const std::size_t dot = runs.find('.');
    const std::string_view run = runs.substr(0, dot);
    const std::size_t times = run.find('x');
    const std::uint64_t thread = ParseNumber(run.substr(0, times), "thread");
    const std::uint64_t repeat = times == std::string_view::npos ? 1 : ParseNumber(run.substr(times + 1), "repeat");
    if (decisions.size() + repeat > count) throw std::invalid_argument("schedule: more decisions than its count");
    decisions.insert(decisions.end(), repeat, static_cast<std::uint32_t>(thread));
    runs = dot == std::string_view::npos ? std::string_view() : runs.substr(dot + 1);
  }
  if (decisions.size() != count) throw std::invalid_argument("schedule: fewer decisions than its count");
  return decisions;
}

std::string EncodeAnchored(const std::vector<AnchoredDecision>& decisions) {
  std::string text = "A1-";
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    const AnchoredDecision& decision = decisions[i];
    if (i > 0) text += '_';
    text += std::to_string(decision.current) + "." + std::to_string(decision.current_points) + "." +
            std::to_string(decision.chosen);
    if (decision.preemption) text += 'p';
    if (decision.deferred) text += 'd';
  }
  return text;
}

std::vector<AnchoredDecision> DecodeAnchored(std::string_view text) {
  if (!text.starts_with("A1-")) throw std::invalid_argument("anchored decisions: expected them to start with 'A1-'");
  std::vector<AnchoredDecision> decisions;
  std::string_view rest = text.substr(3);
  while (!rest.empty()) {
    const std::size_t end = rest.find('_');
    std::string_view item = rest.substr(0, end);
    AnchoredDecision decision;
    while (!item.empty() && (item.back() == 'p' || item.back() == 'd')) {
      (item.back() == 'p' ? decision.preemption : decision.deferred) = true;
      item.remove_suffix(1);
    }
    const std::size_t first = item.find('.');
    const std::size_t second = item.find('.', first == std::string_view::npos ? first : first + 1);
    if (first == std::string_view::npos || second == std::string_view::npos) {
      throw std::invalid_argument("anchored decisions: malformed item '" + std::string(item) + "'");
    }
    decision.current = static_cast<std::uint32_t>(ParseNumber(item.substr(0, first), "thread"));
    decision.current_points = ParseNumber(item.substr(first + 1, second - first - 1), "points");
    decision.chosen = static_cast<std::uint32_t>(ParseNumber(item.substr(second + 1), "thread"));
    decisions.push_back(decision);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  return decisions;
}

}  // namespace sim::internal
