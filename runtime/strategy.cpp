// strategy.cpp: parses a strategy spec into one of the strategies.
#include "strategy.h"

#include <charconv>
#include <stdexcept>

namespace sim::internal {

std::unique_ptr<Strategy> MakeStrategy(std::string_view spec) {
  if (spec == "random") return MakeRandomStrategy();
  if (spec.starts_with("pct:")) {
    std::string_view digits = spec.substr(4);
    std::uint32_t depth = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), depth);
    if (error == std::errc() && end == digits.data() + digits.size() && depth >= 1) return MakePctStrategy(depth);
    throw std::invalid_argument("strategy 'pct:" + std::string(digits) +
                                "': the depth must be a whole number >= 1, as in pct:3");
  }
  if (spec.starts_with("dfs:")) {
    std::string_view digits = spec.substr(4);
    std::uint32_t bound = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bound);
    if (error == std::errc() && end == digits.data() + digits.size()) return MakeDfsStrategy(bound);
    throw std::invalid_argument("strategy 'dfs:" + std::string(digits) +
                                "': the preemption bound must be a whole number >= 0, as in dfs:2");
  }
  if (spec.starts_with("replay:")) return MakeReplayStrategy(spec.substr(7));
  throw std::invalid_argument("unknown strategy '" + std::string(spec) +
                              "'; valid strategies: random, pct:D (D >= 1), dfs:P (P >= 0), replay:<schedule>");
}

}  // namespace sim::internal
