// strategy_dfs.cpp: dfs:P, every schedule with at most P preemptions, one per
// execution (bounded_search.h has the algorithm).
#include <algorithm>

#include "bounded_search.h"
#include "strategy.h"

namespace sim::internal {
namespace {

class DfsStrategy final : public Strategy {
 public:
  explicit DfsStrategy(std::uint32_t bound) : search_(bound) {}

  void BeginExecution(std::uint64_t) override {
    prefix_ = search_.Prefix();
    choices_.clear();
  }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    choices_.push_back({at.current, at.current_points, at.current_enabled, {enabled.begin(), enabled.end()}});
    return {DefaultOrAnchored(prefix_, enabled, at), {}};
  }

  std::string EndExecution(std::uint64_t) override {
    if (!search_.Record(choices_)) {
      return "the program did not repeat itself under the same choices: it depends on something outside the "
             "world, such as real time or randomness";
    }
    return {};
  }

  bool Exhausted() const override { return search_.Exhausted(); }
  std::uint64_t SchedulesRun() const override { return search_.executions(); }

 private:
  BoundedSearch search_;
  std::vector<AnchoredDecision> prefix_;
  std::vector<ChoiceRecord> choices_;
};

}  // namespace

std::unique_ptr<Strategy> MakeDfsStrategy(std::uint32_t bound) { return std::make_unique<DfsStrategy>(bound); }

}  // namespace sim::internal
