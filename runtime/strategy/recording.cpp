// recording.cpp: see strategy/recording.h.
#include "strategy/recording.h"

namespace sim::internal {

void RecordingStrategy::BeginExecution(std::uint64_t seed) {
  inner_.BeginExecution(seed);
  into_ = StrategyRecording{.seed = seed, .choice_points = 0, .choices = {}};
  keeping_ = keep_choices_ || inner_.LearnsFromChoicePoints();
}

Choice RecordingStrategy::Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) {
  if (keeping_)
    into_.choices.push_back({at.current, at.current_points, at.current_enabled, {enabled.begin(), enabled.end()}});
  return inner_.Choose(enabled, at);
}

std::string RecordingStrategy::EndExecution(std::uint64_t choice_points) {
  into_.choice_points = choice_points;
  return inner_.EndExecution(choice_points);
}

void TeachStrategy(Strategy& strategy, const StrategyRecording& recording) {
  strategy.BeginExecution(recording.seed);
  if (strategy.LearnsFromChoicePoints()) {
    for (const ChoiceRecord& choice : recording.choices) {
      ChoicePoint at;
      at.current = choice.current;
      at.current_points = choice.current_points;
      at.current_enabled = choice.current_enabled;
      strategy.Choose(choice.enabled, at);
    }
  }
  strategy.EndExecution(recording.choice_points);
}

}  // namespace sim::internal
