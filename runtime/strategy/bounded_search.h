// bounded_search.h: preemption-bounded depth-first search over schedules,
// independent of where the executions run.
//
// Musuvathi and Qadeer, "Iterative Context Bounding for Systematic Testing
// of Multithreaded Programs", PLDI 2007 (CHESS): every schedule with at most
// `bound` preemptions, by stateless replay. Each execution follows Prefix()
// (anchored decisions where they are not the default; elsewhere
// DefaultChoice), and reports every choice point it met to Record(), which
// extends the search stack and advances its deepest choice point that has an
// untried alternative within the bound. A yield offers a free switch, as in
// CHESS, and so does the end of a time slice (kTimeSliceChoicePoints):
// there the default is the next thread in turn, and going on costs a
// preemption, so a thread that waits in a loop for another lets it run
// within any bound. Used in process by the dfs:P strategy, and across
// processes by sim-run's search and whole-program shrinking.
//
// A reduced execution (one whose races were found: race_reversal.h) offers
// at each choice point only the default and the threads its races asked
// for, there or in any later execution through the same point; an execution
// that was not reduced (one a data race ended, which never ran what follows
// it) offers every enabled thread at each of its points, those it shares
// with earlier executions included.
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
  // Up to `count` prefixes the search will ask for later, unless it stops
  // first: each frame's alternatives not tried yet, within the bound,
  // deepest frame first. The executions below the current prefix come
  // before them, and Record only adds alternatives after those a frame
  // has, so each is asked for as it is now: an execution run for one ahead
  // of time is the one the search would run then (whole_program/
  // candidates_ahead.h runs them on a second core).
  std::vector<std::vector<AnchoredDecision>> PrefixesAhead(std::size_t count) const;
  std::uint64_t executions() const { return executions_; }

 private:
  struct Frame {
    ChoiceRecord at;
    std::vector<ThreadId> order;  // alternatives, the default first
    std::size_t index = 0;
    std::uint32_t preemptions_before = 0;
    // Where the running thread could go on, any choice but the default
    // (order[0]) is a preemption: a switch away from it, or at a yield, where
    // the default is to switch to the next thread, going on or switching to
    // another. One free choice per point, as at any other point, so that a
    // loop of yields does not multiply the schedules within the bound.
    std::uint32_t PreemptionsAfter() const { return preemptions_before + (at.current_enabled && index != 0 ? 1 : 0); }
  };

  // The decision a frame's current alternative anchors, when not the default.
  static AnchoredDecision DecisionAt(const Frame& frame);

  std::uint32_t bound_;
  std::vector<Frame> stack_;
  std::uint64_t executions_ = 0;
  bool exhausted_ = false;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_BOUNDED_SEARCH_H_
