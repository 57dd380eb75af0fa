// recording.cpp: see strategy/recording.h.
#include "strategy/recording.h"

#include "strategy/race_reversal.h"

namespace sim::internal {

void RecordingStrategy::BeginExecution(std::uint64_t seed) {
  into_ = StrategyRecording{.seed = seed, .choice_points = 0, .choices = {}, .reduced = false, .flip_continuation = {}};
  inner_.BeginExecution(seed);
  keeping_ = keep_choices_ || find_reversals_ || inner_.LearnsFromChoicePoints();
}

Choice RecordingStrategy::Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) {
  if (keeping_) into_.choices.push_back(RecordOf(enabled, at));
  return inner_.Choose(enabled, at);
}

void RecordingStrategy::OnTransitions(std::span<const Transition> transitions) {
  if (keeping_) {
    FindRaceReversals(transitions, into_.choices);
    into_.reduced = true;
  }
  if (inner_.WantsTransitions()) inner_.OnTransitions(transitions);
}

std::string RecordingStrategy::EndExecution(std::uint64_t choice_points) {
  into_.choice_points = choice_points;
  return inner_.EndExecution(choice_points);
}

void TeachStrategy(Strategy& strategy, const StrategyRecording& recording) {
  strategy.BeginExecution(recording.seed);
  if (strategy.LearnsFromChoicePoints()) strategy.LearnChoices(recording.choices, recording.reduced);
  strategy.EndExecution(recording.choice_points);
}

}  // namespace sim::internal
