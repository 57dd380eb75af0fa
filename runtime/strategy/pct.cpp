// pct.cpp: probabilistic concurrency testing.
//
// Burckhardt, Kothari, Musuvathi, Nagarakatte, "A Randomized Scheduler with
// Probabilistic Guarantees of Finding Bugs", ASPLOS 2010. Each thread gets a
// random priority above depth-1; the highest-priority enabled thread runs;
// at d-1 change points drawn uniformly from the first k choice points, the
// running thread drops to priority d-1-i, below every initial priority.
// Finds a bug of depth d with probability >= 1/(n k^(d-1)).
//
// Departures from the paper: k counts choice points (not all steps), since
// only those can switch; it is not known before the first execution, so it is
// estimated as the most seen in any earlier execution of this explore() call
// (starting at kInitialChoicePoints, or at K for pct:D:K). A thread created
// mid-execution gets a fresh random priority, as in the paper's handling of
// dynamic threads. Since the estimate depends on earlier executions, a seed
// run alone repeats its execution only with the estimate it ran with:
// ReplaySpec says it (pct:D:K) once it moved.
//
// Liveness: a strict priority order starves a thread that waits in a loop
// for a lower-priority one (a yield loop, a spin lock), which real schedulers
// and random walk do not, so PCT alone would report false step limits. A
// thread that yields drops below every other priority (the latest yielder
// lowest), as a change point would drop it; and an execution that passes
// kFairChoicePoints choice points is taken on by uniform choice, which ends
// busy-wait loops without a yield with probability 1.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/prng.h"
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

class PctStrategy final : public Strategy {
 public:
  PctStrategy(std::uint32_t depth, std::uint64_t initial_choice_points)
      : depth_(depth), initial_choice_points_(initial_choice_points), estimated_choice_points_(initial_choice_points) {}

  void BeginExecution(std::uint64_t seed) override {
    prng_ = Prng(seed);
    priorities_.clear();
    choice_points_ = 0;
    yields_ = 0;
    change_points_.clear();
    estimate_in_force_ = estimated_choice_points_;
    for (std::uint32_t i = 1; i < depth_; ++i) change_points_.push_back(1 + prng_.Below(estimate_in_force_));
  }

  std::string ReplaySpec(std::string_view given) const override {
    if (estimate_in_force_ == initial_choice_points_) return std::string(given);
    return "pct:" + std::to_string(depth_) + ":" + std::to_string(estimate_in_force_);
  }

  void OnThreadCreated(ThreadId thread) override {
    if (priorities_.size() <= thread) priorities_.resize(thread + 1, 0);
    // Initial priorities lie above every change-point priority (< depth).
    priorities_[thread] = static_cast<std::int64_t>(depth_ + (prng_.Next() >> 2));
  }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    ++choice_points_;
    if (choice_points_ > kFairChoicePoints) return {enabled[prng_.Below(enabled.size())], {}};
    const std::optional<ThreadId> running = at.running();
    for (std::size_t i = 0; i < change_points_.size(); ++i) {
      if (change_points_[i] == choice_points_ && running.has_value()) {
        priorities_[*running] = static_cast<std::int64_t>(depth_ - 1 - i);
      }
    }
    if (at.current_yielding && running.has_value()) priorities_[*running] = -static_cast<std::int64_t>(++yields_);
    ThreadId best = enabled.front();
    for (ThreadId thread : enabled) {
      if (priorities_[thread] > priorities_[best]) best = thread;
    }
    return {best, {}};
  }

  std::string EndExecution(std::uint64_t choice_points) override {
    estimated_choice_points_ = std::max(estimated_choice_points_, choice_points);
    return {};
  }

 private:
  std::uint32_t depth_;
  std::uint64_t initial_choice_points_;
  std::uint64_t estimate_in_force_ = 0;  // this execution's: what its change points were drawn from
  Prng prng_{0};
  static constexpr std::uint64_t kFairChoicePoints = 100000;
  std::vector<std::int64_t> priorities_;  // yielders below 0, change points in [0, depth - 1), the rest above
  std::uint64_t yields_ = 0;
  std::vector<std::uint64_t> change_points_;
  std::uint64_t choice_points_ = 0;
  std::uint64_t estimated_choice_points_;
};

}  // namespace

std::unique_ptr<Strategy> MakePctStrategy(std::uint32_t depth, std::uint64_t initial_choice_points) {
  return std::make_unique<PctStrategy>(depth, initial_choice_points);
}

}  // namespace sim::internal
