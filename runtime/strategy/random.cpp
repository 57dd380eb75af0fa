// random.cpp: a uniform choice among the enabled threads.
#include "core/prng.h"
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

class RandomStrategy final : public Strategy {
 public:
  void BeginExecution(std::uint64_t seed) override { prng_ = Prng(seed); }
  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint&) override {
    return {enabled[prng_.Below(enabled.size())], {}};
  }

 private:
  Prng prng_{0};
};

}  // namespace

std::unique_ptr<Strategy> MakeRandomStrategy() { return std::make_unique<RandomStrategy>(); }

}  // namespace sim::internal
