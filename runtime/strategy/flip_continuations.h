// flip_continuations.h: a race's flipped executions already run, so that a
// continuation that would only repeat one of them is not run again.
//
// After a race's flip (race_flip.h), continuation k >= 1 draws the rest of
// the execution with its own strategy seeded k. Where little is left to
// draw, many seeds draw the same schedule: refcount_double_delete's 20
// continuations ran 7 different executions, and in whole-program mode each
// one is a process of its own.
//
// The flip strategy records what its continuation was shown after the
// flip: at every choice point the threads created since the one before,
// the point, its enabled threads and their pending operations, and which
// thread was chosen. Given the same choices since the start, a program
// shows the same points (replay and shrinking rest on that), so the
// executions run form a tree, and a new continuation's strategy can be run
// over the tree without the program: while each of its choices leads to a
// branch the tree has, it sees what the program would have shown it; when
// it reaches the end of a recorded execution it would repeat that
// execution, whose outcome is known. Where it leaves the tree, it has to
// run. Two records that disagree where they should agree (a program that
// is not deterministic) make the tree answer nothing from then on.
#ifndef SIM_RUNTIME_STRATEGY_FLIP_CONTINUATIONS_H_
#define SIM_RUNTIME_STRATEGY_FLIP_CONTINUATIONS_H_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "strategy/strategy.h"

namespace sim::internal {

// One choice point as a flip's continuation saw it.
struct ContinuationPoint {
  std::vector<ThreadId> created;  // threads created since the point before (before the first: every one so far)
  std::vector<ThreadId> enabled;
  std::vector<PendingOperation> pending;  // parallel to `enabled`
  ChoicePoint at;                         // at.pending is empty: it is `pending`, given back by Show()
  ThreadId chosen = 0;

  bool SameAs(const ContinuationPoint& other) const;  // all but `chosen`
  Choice Show(Strategy& strategy) const;              // OnThreadCreated for `created`, then Choose
};

// What one flipped execution's continuation saw, from the flip to its end.
struct ContinuationRecord {
  bool flipped = false;  // the flip was made (else nothing after it was recorded)
  std::vector<ContinuationPoint> points;
};

// As one line of space-separated numbers, for a candidate's outcome file.
std::string EncodeContinuationRecord(const ContinuationRecord& record);
// False when `in` does not hold one.
bool DecodeContinuationRecord(std::istream& in, ContinuationRecord& record);

class FlipContinuations {
 public:
  // The execution numbered `execution` (the caller's own numbering) saw
  // `record` after the flip.
  void Add(const ContinuationRecord& record, std::size_t execution);
  // Which execution added `strategy`'s would repeat, had it been begun
  // (BeginExecution) as the continuation it would run; nullopt when it
  // would leave the tree, that is, has to run.
  std::optional<std::size_t> Repeated(Strategy& strategy) const;

 private:
  struct Node {
    bool is_point = false;  // else the end of an execution
    ContinuationPoint point;
    std::map<ThreadId, std::size_t> children;  // by point.chosen
    std::size_t execution = 0;                 // an end: which one
  };

  std::vector<Node> nodes_;  // nodes_[0]: the first point after the flip, or the end right after it
  bool trusted_ = true;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STRATEGY_FLIP_CONTINUATIONS_H_
