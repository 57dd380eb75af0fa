// strategy.cpp: parses a strategy spec into one of the strategies.
#include "strategy/strategy.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <vector>

namespace sim::internal {
namespace {

// What `portfolio` alone means.
constexpr std::string_view kDefaultPortfolio = "random,pct:2,pct:3,pos";

constexpr const char* kValidStrategies =
    "valid strategies: random, pct:D (D >= 1), pos, dfs:P (P >= 0), portfolio or portfolio:S,S,... (each S random, "
    "pct:D or pos), replay:<schedule>";

// The strategies that take a seed: what a portfolio may hold. Null when
// `spec` is none of them.
std::unique_ptr<Strategy> MakeSeededStrategy(std::string_view spec, std::uint64_t pct_choice_points) {
  if (spec == "random") return MakeRandomStrategy();
  if (spec == "pos") return MakePosStrategy();
  if (spec.starts_with("pct:")) {
    if (pct_choice_points < 1) {
      throw std::invalid_argument("option pct_choice_points=0: pct's estimate of choice points must be >= 1");
    }
    const std::string_view arguments = spec.substr(4);
    const std::size_t colon = std::min(arguments.find(':'), arguments.size());
    const std::string_view digits = arguments.substr(0, colon);
    std::uint32_t depth = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), depth);
    if (error != std::errc() || end != digits.data() + digits.size() || depth < 1) {
      throw std::invalid_argument("strategy 'pct:" + std::string(arguments) +
                                  "': the depth must be a whole number >= 1, as in pct:3");
    }
    if (colon == arguments.size()) return MakePctStrategy(depth, pct_choice_points);
    // pct:D:K, as replay commands print it: start the estimate of choice points at K.
    const std::string_view estimate_digits = arguments.substr(colon + 1);
    std::uint64_t estimate = 0;
    auto [estimate_end, estimate_error] =
        std::from_chars(estimate_digits.data(), estimate_digits.data() + estimate_digits.size(), estimate);
    if (estimate_error != std::errc() || estimate_end != estimate_digits.data() + estimate_digits.size() ||
        estimate < 1) {
      throw std::invalid_argument("strategy 'pct:" + std::string(arguments) +
                                  "': the estimate of choice points K in pct:D:K must be a whole number >= 1, as "
                                  "in pct:3:200");
    }
    return MakePctStrategy(depth, estimate);
  }
  return nullptr;
}

std::unique_ptr<Strategy> MakePortfolio(std::string_view list, std::uint64_t pct_choice_points) {
  std::vector<PortfolioMember> members;
  for (std::size_t start = 0;;) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view member = list.substr(start, comma - start);
    std::unique_ptr<Strategy> strategy = MakeSeededStrategy(member, pct_choice_points);
    if (strategy == nullptr) {
      throw std::invalid_argument(
          "strategy 'portfolio:" + std::string(list) + "': '" + std::string(member) +
          "' cannot be a member; a portfolio is 'portfolio' (the default, portfolio:" + std::string(kDefaultPortfolio) +
          ") or portfolio:S,S,... with each S random, pct:D (D >= 1) or pos");
    }
    members.push_back({std::string(member), std::move(strategy)});
    if (comma == list.size()) break;
    start = comma + 1;
  }
  return MakePortfolioStrategy(std::move(members));
}

}  // namespace

ChoiceRecord RecordOf(std::span<const ThreadId> enabled, const ChoicePoint& at) {
  return {at.current,
          at.current_points,
          at.current_enabled,
          SwitchByDefault(at),
          {enabled.begin(), enabled.end()},
          at.transitions,
          {}};
}

ThreadId DefaultChoice(std::span<const ThreadId> enabled, ThreadId current, bool current_enabled,
                       bool switch_by_default) {
  if (!current_enabled) return enabled.front();
  if (!switch_by_default) return current;
  const auto after = std::upper_bound(enabled.begin(), enabled.end(), current);
  return after != enabled.end() ? *after : enabled.front();
}

std::unique_ptr<Strategy> MakeStrategy(std::string_view spec, std::uint64_t pct_choice_points) {
  if (std::unique_ptr<Strategy> seeded = MakeSeededStrategy(spec, pct_choice_points)) return seeded;
  if (spec.starts_with("dfs:")) {
    std::string_view digits = spec.substr(4);
    std::uint32_t bound = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bound);
    if (error == std::errc() && end == digits.data() + digits.size()) return MakeDfsStrategy(bound);
    throw std::invalid_argument("strategy 'dfs:" + std::string(digits) +
                                "': the preemption bound must be a whole number >= 0, as in dfs:2");
  }
  if (spec == "portfolio") return MakePortfolio(kDefaultPortfolio, pct_choice_points);
  if (spec.starts_with("portfolio:")) return MakePortfolio(spec.substr(10), pct_choice_points);
  if (spec.starts_with("replay:")) return MakeReplayStrategy(spec.substr(7));
  throw std::invalid_argument("unknown strategy '" + std::string(spec) + "'; " + kValidStrategies);
}

}  // namespace sim::internal
