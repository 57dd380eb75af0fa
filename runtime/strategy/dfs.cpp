// dfs.cpp: dfs:P, every schedule with at most P preemptions, one per
// execution (bounded_search.h has the algorithm).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include "strategy/bounded_search.h"
#include "strategy/race_reversal.h"
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

class DfsStrategy final : public Strategy {
 public:
  explicit DfsStrategy(std::uint32_t bound) : search_(bound) {}

  void BeginExecution(std::uint64_t) override {
    prefix_ = search_.Prefix();
    choices_.clear();
    reduced_ = false;
    // Indexed by anchor, because scanning the prefix at every choice point
    // made long executions quadratic (shrinking spent 42% of its time there).
    // An anchor is unique: each choice point of a thread has its own points.
    prefix_index_.clear();
    for (std::size_t i = 0; i < prefix_.size(); ++i) {
      prefix_index_.emplace(Anchor{prefix_[i].current, prefix_[i].current_points}, i);
    }
  }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    choices_.push_back(RecordOf(enabled, at));
    const auto found = prefix_index_.find(Anchor{at.current, at.current_points});
    if (found != prefix_index_.end()) {
      const ThreadId chosen = prefix_[found->second].chosen;
      if (std::find(enabled.begin(), enabled.end(), chosen) != enabled.end()) return {chosen, {}};
    }
    return {DefaultChoice(enabled, at.current, at.current_enabled, SwitchByDefault(at)), {}};
  }

  bool WantsTransitions() const override { return true; }
  void OnTransitions(std::span<const Transition> transitions) override {
    FindRaceReversals(transitions, choices_);
    reduced_ = true;
  }
  void LearnChoices(const std::vector<ChoiceRecord>& choices, bool reduced) override {
    choices_ = choices;
    reduced_ = reduced;
  }

  std::string EndExecution(std::uint64_t) override {
    if (!search_.Record(choices_, reduced_)) {
      return "the program did not repeat itself under the same choices: it depends on something outside the "
             "world, such as real time or randomness";
    }
    return {};
  }

  bool LearnsFromChoicePoints() const override { return true; }
  bool Exhausted() const override { return search_.Exhausted(); }
  std::uint64_t SchedulesRun() const override { return search_.executions(); }

 private:
  BoundedSearch search_;
  struct Anchor {
    ThreadId thread;
    std::uint64_t points;
    bool operator==(const Anchor&) const = default;
  };
  struct AnchorHash {
    std::size_t operator()(const Anchor& anchor) const {
      return std::hash<std::uint64_t>()(anchor.points * 0x9E3779B97F4A7C15ull ^ anchor.thread);
    }
  };

  std::vector<AnchoredDecision> prefix_;
  std::unordered_map<Anchor, std::size_t, AnchorHash> prefix_index_;
  std::vector<ChoiceRecord> choices_;
  bool reduced_ = false;  // OnTransitions found this execution's races
};

}  // namespace

std::unique_ptr<Strategy> MakeDfsStrategy(std::uint32_t bound) { return std::make_unique<DfsStrategy>(bound); }

}  // namespace sim::internal
