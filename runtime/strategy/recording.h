// recording.h: a strategy's execution, kept so that another copy
// of the strategy can learn from it.
//
// An execution that runs in another process (a whole program's shrinking
// candidate, an isolated execution: isolated_execution.h) decides with a
// copy of the strategy there. What the copy learns (pct's estimate of
// choice points, dfs's search tree) would die with that process: the
// recording carries it back, and TeachStrategy makes the original learn it.
#ifndef SIM_RUNTIME_STRATEGY_RECORDING_H_
#define SIM_RUNTIME_STRATEGY_RECORDING_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "strategy/bounded_search.h"
#include "strategy/flip_continuations.h"
#include "strategy/strategy.h"

namespace sim::internal {

struct StrategyRecording {
  std::uint64_t seed = 0;
  std::uint64_t choice_points = 0;    // as EndExecution was told
  std::vector<ChoiceRecord> choices;  // every choice point met, when kept
  bool reduced = false;               // choices carry their also_try (race_reversal.h)
  // A race's flipped execution: what its continuation was shown, kept by
  // the flip strategy itself (race_flip.h), not by RecordingStrategy.
  ContinuationRecord flip_continuation;
};

// Forwards every call to `inner` and keeps the execution in `into`: always
// its seed and count of choice points; its choice points when
// `keep_choices` or when `inner` learns from them, with their race
// reversals when `find_reversals` or when `inner` wants the steps.
class RecordingStrategy final : public Strategy {
 public:
  RecordingStrategy(Strategy& inner, StrategyRecording& into, bool keep_choices, bool find_reversals = false)
      : inner_(inner), into_(into), keep_choices_(keep_choices), find_reversals_(find_reversals) {}

  void BeginExecution(std::uint64_t seed) override;
  bool WantsPendingOperations() const override { return inner_.WantsPendingOperations(); }
  void OnThreadCreated(ThreadId thread) override { inner_.OnThreadCreated(thread); }
  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override;
  bool WantsTransitions() const override { return find_reversals_ || inner_.WantsTransitions(); }
  void OnTransitions(std::span<const Transition> transitions) override;
  std::string EndExecution(std::uint64_t choice_points) override;
  std::string ReplaySpec(std::string_view given) const override { return inner_.ReplaySpec(given); }
  bool Exhausted() const override { return inner_.Exhausted(); }
  std::uint64_t SchedulesRun() const override { return inner_.SchedulesRun(); }
  bool LearnsFromChoicePoints() const override { return inner_.LearnsFromChoicePoints(); }

 private:
  Strategy& inner_;
  StrategyRecording& into_;
  bool keep_choices_;
  bool find_reversals_;
  bool keeping_ = false;  // this execution's choice points are kept
};

// Makes `strategy` learn what it would have learnt had it run the recorded
// execution itself: the same BeginExecution, the choice points it learns
// from, the same EndExecution.
void TeachStrategy(Strategy& strategy, const StrategyRecording& recording);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STRATEGY_RECORDING_H_
