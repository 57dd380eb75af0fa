// strategy.h: who runs next at a choice point.
//
// Lifecycle: MakeStrategy() once per explore() call; then, per execution,
// BeginExecution(seed), OnThreadCreated() for every thread (T0 included),
// Choose() at every choice point (a scheduling point with more than one
// enabled thread), and EndExecution(). A strategy keeps what it learns across
// executions (pct: the number of choice points). Same seed and same program
// => same choices: a strategy draws only from its seeded Prng.
#ifndef SIM_RUNTIME_STRATEGY_H_
#define SIM_RUNTIME_STRATEGY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sim::internal {

using ThreadId = std::uint32_t;

struct Choice {
  ThreadId thread = 0;
  std::string mismatch;  // non-empty: the strategy cannot go on (replay of a schedule that does not fit)
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual void BeginExecution(std::uint64_t seed) = 0;
  virtual void OnThreadCreated(ThreadId thread) { (void)thread; }
  // `enabled` is sorted by id and has at least two threads; `running` is the
  // thread that reached the choice point if it is still enabled.
  virtual Choice Choose(std::span<const ThreadId> enabled, std::optional<ThreadId> running) = 0;
  // Returns a mismatch (non-empty) when the execution ended somewhere the
  // strategy did not expect (a replayed schedule with decisions left over).
  virtual std::string EndExecution(std::uint64_t choice_points) {
    (void)choice_points;
    return {};
  }
};

// "random", "pct:D" or "replay:<schedule>". Throws std::invalid_argument
// naming the valid forms.
std::unique_ptr<Strategy> MakeStrategy(std::string_view spec);

std::unique_ptr<Strategy> MakeRandomStrategy();
std::unique_ptr<Strategy> MakePctStrategy(std::uint32_t depth);
std::unique_ptr<Strategy> MakeReplayStrategy(std::string_view schedule);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STRATEGY_H_
