// bounded_search.cpp: the CHESS search stack (see the header).
#include "strategy/bounded_search.h"

#include <algorithm>

namespace sim::internal {

AnchoredDecision BoundedSearch::DecisionAt(const Frame& frame) {
  const ThreadId chosen = frame.order[frame.index];
  return {frame.at.current, frame.at.current_points, chosen, frame.at.current_enabled && chosen != frame.at.current,
          false};
}

std::vector<AnchoredDecision> BoundedSearch::Prefix() const {
  std::vector<AnchoredDecision> prefix;
  for (const Frame& frame : stack_) {
    // The default needs no decision: an execution takes it wherever it has
    // none. A long execution's prefix of every choice was too long to pass
    // to a candidate process (185 KB for concurrentqueue's 16th schedule).
    if (frame.index != 0) prefix.push_back(DecisionAt(frame));
  }
  return prefix;
}

std::vector<std::vector<AnchoredDecision>> BoundedSearch::PrefixesAhead(std::size_t count) const {
  std::vector<std::vector<AnchoredDecision>> ahead;
  for (std::size_t depth = stack_.size(); depth-- > 0 && ahead.size() < count;) {
    Frame next = stack_[depth];
    while (ahead.size() < count && ++next.index < next.order.size()) {
      if (next.PreemptionsAfter() > bound_) continue;
      std::vector<AnchoredDecision> prefix;
      for (std::size_t above = 0; above < depth; ++above) {
        if (stack_[above].index != 0) prefix.push_back(DecisionAt(stack_[above]));
      }
      prefix.push_back(DecisionAt(next));
      ahead.push_back(std::move(prefix));
    }
  }
  return ahead;
}

bool BoundedSearch::Record(const std::vector<ChoiceRecord>& choices, bool reduced) {
  ++executions_;
  for (std::size_t depth = 0; depth < stack_.size() && depth < choices.size(); ++depth) {
    if (choices[depth].current != stack_[depth].at.current ||
        choices[depth].current_points != stack_[depth].at.current_points) {
      return false;
    }
  }
  if (choices.size() < stack_.size()) stack_.resize(choices.size());
  auto offer = [](Frame& frame, ThreadId thread) {
    if (std::find(frame.order.begin(), frame.order.end(), thread) == frame.order.end()) frame.order.push_back(thread);
  };
  for (std::size_t depth = 0; depth < stack_.size(); ++depth) {
    for (ThreadId thread : reduced ? choices[depth].also_try : choices[depth].enabled) offer(stack_[depth], thread);
  }
  for (std::size_t depth = stack_.size(); depth < choices.size(); ++depth) {
    Frame frame;
    frame.at = choices[depth];
    frame.preemptions_before = stack_.empty() ? 0 : stack_.back().PreemptionsAfter();
    frame.order.push_back(
        DefaultChoice(frame.at.enabled, frame.at.current, frame.at.current_enabled, frame.at.switch_by_default));
    for (ThreadId thread : reduced ? frame.at.also_try : frame.at.enabled) offer(frame, thread);
    stack_.push_back(std::move(frame));
  }
  while (!stack_.empty()) {
    Frame& frame = stack_.back();
    while (++frame.index < frame.order.size()) {
      if (frame.PreemptionsAfter() <= bound_) return true;
    }
    stack_.pop_back();
  }
  exhausted_ = true;
  return true;
}

}  // namespace sim::internal
