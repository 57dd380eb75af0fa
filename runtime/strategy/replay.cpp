// replay.cpp: follows a recorded schedule exactly.
//
// Any departure (the schedule names a thread that is not enabled, or ends
// before the program does) is reported, never papered over: a replay that
// silently ran a different interleaving would be worse than none.
#include <algorithm>
#include <map>
#include <vector>

#include "strategy/schedule.h"
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(std::vector<ThreadId> decisions) : decisions_(std::move(decisions)) {}

  void BeginExecution(std::uint64_t) override { next_ = 0; }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint&) override {
    if (next_ >= decisions_.size()) [[unlikely]]
      return ScheduleEnded(enabled);
    const ThreadId scheduled = decisions_[next_];
    if (std::find(enabled.begin(), enabled.end(), scheduled) == enabled.end()) [[unlikely]] {
      return NotEnabled(enabled, scheduled);
    }
    ++next_;
    return {scheduled, {}};
  }

  std::string EndExecution(std::uint64_t) override {
    if (next_ == decisions_.size()) return {};
    return "the program ended after " + std::to_string(next_) + " choice points but the schedule has " +
           std::to_string(decisions_.size()) + "; it was recorded from a different program or input";
  }

 private:
  // The mismatches, out of line: building their text would otherwise cost
  // Choose its frame at every choice point.
  [[gnu::noinline, gnu::cold]] Choice ScheduleEnded(std::span<const ThreadId> enabled) {
    mismatch_ = "the schedule ended after " + std::to_string(decisions_.size()) +
                " choice points but the program reached another (enabled: " + Names(enabled) +
                "); it was recorded from a different program or input";
    return {0, mismatch_};
  }
  [[gnu::noinline, gnu::cold]] Choice NotEnabled(std::span<const ThreadId> enabled, ThreadId scheduled) {
    mismatch_ = "at choice point " + std::to_string(next_) + " the schedule names T" + std::to_string(scheduled) +
                ", which is not enabled; enabled: " + Names(enabled) +
                ". The schedule was recorded from a different program or input";
    return {0, mismatch_};
  }
  static std::string Names(std::span<const ThreadId> threads) {
    std::string names;
    for (ThreadId thread : threads) names += (names.empty() ? "T" : ", T") + std::to_string(thread);
    return names;
  }

  std::vector<ThreadId> decisions_;
  std::size_t next_ = 0;
  std::string mismatch_;  // what the last Choose returned a view of
};

class AnchoredReplayStrategy final : public Strategy {
 public:
  explicit AnchoredReplayStrategy(std::vector<AnchoredDecision> decisions) {
    for (const AnchoredDecision& decision : decisions) {
      if (decision.deferred) {
        deferred_.push_back(decision);
      } else {
        chosen_[{decision.current, decision.current_points}] = decision.chosen;
      }
    }
  }

  void BeginExecution(std::uint64_t) override {}

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    auto is_enabled = [&enabled](ThreadId thread) {
      return std::find(enabled.begin(), enabled.end(), thread) != enabled.end();
    };
    auto it = chosen_.find({at.current, at.current_points});
    if (it != chosen_.end() && is_enabled(it->second)) return {it->second, {}};
    if (at.current_enabled && !SwitchByDefault(at)) return {at.current, {}};
    for (auto pending = deferred_.begin(); pending != deferred_.end(); ++pending) {
      if (pending->current == at.current && pending->current_points <= at.current_points &&
          is_enabled(pending->chosen)) {
        const ThreadId chosen = pending->chosen;
        deferred_.erase(pending);
        return {chosen, {}};
      }
    }
    return {DefaultChoice(enabled, at.current, at.current_enabled, SwitchByDefault(at)), {}};
  }

 private:
  std::map<std::pair<ThreadId, std::uint64_t>, ThreadId> chosen_;
  std::vector<AnchoredDecision> deferred_;
};

}  // namespace

std::unique_ptr<Strategy> MakeAnchoredReplayStrategy(std::vector<AnchoredDecision> decisions) {
  return std::make_unique<AnchoredReplayStrategy>(std::move(decisions));
}

std::unique_ptr<Strategy> MakeReplayStrategy(std::string_view schedule) {
  return std::make_unique<ReplayStrategy>(DecodeSchedule(schedule));
}

}  // namespace sim::internal
