// bounded_search.h: preemption-bounded depth-first search over schedules,
// independent of where the executions run.
//
// Musuvathi and Qadeer, "Iterative Context Bounding for Systematic Testing
// of Multithreaded Programs", PLDI 2007 (CHESS): every schedule with at most
// `bound` preemptions, by stateless replay. Each execution follows Prefix()
// (anchored decisions; elsewhere the running thread goes on, or the lowest
// enabled thread when it cannot: the default choice), and reports every
// choice point it met to Record(), which extends the search stack and
// advances its deepest choice point that has an untried alternative within
// the bound. Used in process by the dfs:P strategy, and across processes by
// sim-run's search and whole-program shrinking.
//
// A reduced execution (one whose races were found: race_reversal.h) offers
// at each choice point only the default and the threads its races asked
// for, there or in any later execution through the same point; an execution
// that was not reduced offers every enabled thread.
#ifndef SIM_RUNTIME_BOUNDED_SEARCH_H_
#define SIM_RUNTIME_BOUNDED_SEARCH_H_

#include <cstdint>
#include <vector>

#include "strategy/strategy.h"

namespace sim::internal {

class BoundedSearch {
 public:
  explicit BoundedSearch(std::uint32_t bound) : bound_(bound) {}

  // The decisions the next execution follows.
  std::vector<AnchoredDecision> Prefix() const;
  // The choice points the execution met, in order, with their also_try when
  // `reduced`. Returns false when the execution did not follow the prefix
  // (the program is not deterministic).
  bool Record(const std::vector<ChoiceRecord>& choices, bool reduced);
  bool Exhausted() const { return exhausted_; }
  std::uint64_t executions() const { return executions_; }

 private:
  struct Frame {
    ChoiceRecord at;
    std::vector<ThreadId> order;  // alternatives, the default first
    std::size_t index = 0;
    std::uint32_t preemptions_before = 0;
    std::uint32_t PreemptionsAfter() const {
      return preemptions_before + (at.current_enabled && order[index] != at.current ? 1 : 0);
    }
  };

  std::uint32_t bound_;
  std::vector<Frame> stack_;
  std::uint64_t executions_ = 0;
  bool exhausted_ = false;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_BOUNDED_SEARCH_H_
