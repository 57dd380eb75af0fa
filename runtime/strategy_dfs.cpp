// strategy_dfs.cpp: bounded exhaustive search with preemption bounding.
//
// Musuvathi and Qadeer, "Iterative Context Bounding for Systematic Testing
// of Multithreaded Programs", PLDI 2007 (CHESS): enumerate every schedule
// with at most `bound` preemptions, depth first, by stateless replay: each
// execution follows the stack of earlier choices and extends it with the
// default choice (the running thread goes on, or the lowest enabled thread
// when it cannot); afterwards the deepest choice point with an untried
// alternative within the bound is advanced. Choices where the running thread
// could not go on are free (no preemption), as in the paper.
//
// Departure: no partial-order reduction yet, so schedules that differ only
// in the order of independent steps are all run.
#include <algorithm>
#include <vector>

#include "strategy.h"

namespace sim::internal {
namespace {

class DfsStrategy final : public Strategy {
 public:
  explicit DfsStrategy(std::uint32_t bound) : bound_(bound) {}

  void BeginExecution(std::uint64_t) override { depth_ = 0; }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    if (depth_ < stack_.size()) {
      Frame& frame = stack_[depth_++];
      const ThreadId chosen = frame.order[frame.index];
      if (std::find(enabled.begin(), enabled.end(), chosen) == enabled.end()) {
        return {0, "the program did not repeat itself under the same choices (choice point " +
                       std::to_string(depth_ - 1) +
                       "): it depends on something outside the world, such as real time or randomness"};
      }
      return {chosen, {}};
    }
    Frame frame;
    frame.preemptions_before = stack_.empty() ? 0 : stack_.back().PreemptionsAfter();
    frame.current = at.current;
    frame.current_enabled = at.current_enabled;
    // The default first, then the others in id order.
    const ThreadId first = at.current_enabled ? at.current : enabled.front();
    frame.order.push_back(first);
    for (ThreadId thread : enabled) {
      if (thread != first) frame.order.push_back(thread);
    }
    stack_.push_back(std::move(frame));
    ++depth_;
    return {first, {}};
  }

  std::string EndExecution(std::uint64_t) override {
    ++schedules_;
    stack_.resize(depth_);  // choice points beyond this execution's end are not ours
    while (!stack_.empty()) {
      Frame& frame = stack_.back();
      while (++frame.index < frame.order.size()) {
        if (frame.PreemptionsAfter() <= bound_) return {};
      }
      stack_.pop_back();
    }
    exhausted_ = true;
    return {};
  }

  bool Exhausted() const override { return exhausted_; }
  std::uint64_t SchedulesRun() const override { return schedules_; }

 private:
  struct Frame {
    std::vector<ThreadId> order;  // alternatives, default first
    std::size_t index = 0;
    ThreadId current = 0;
    bool current_enabled = false;
    std::uint32_t preemptions_before = 0;
    std::uint32_t PreemptionsAfter() const {
      return preemptions_before + (current_enabled && order[index] != current ? 1 : 0);
    }
  };

  std::uint32_t bound_;
  std::vector<Frame> stack_;
  std::size_t depth_ = 0;
  std::uint64_t schedules_ = 0;
  bool exhausted_ = false;
};

}  // namespace

std::unique_ptr<Strategy> MakeDfsStrategy(std::uint32_t bound) { return std::make_unique<DfsStrategy>(bound); }

}  // namespace sim::internal
