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
// thread that yields, or that overruns its time slice (it went on at
// kTimeSliceChoicePoints choice points in a row while others could run: a
// spin without a yield), drops below every other priority, the latest
// lowest, as a change point would drop it. (Until 2026-12 an execution past
// 100,000 choice points was taken on by uniform choice instead, which made
// every access of a long run a likely switch.)
//
// Between change points, yields and time slices the highest-priority thread
// keeps running while the enabled set stays as it is, so a choice to go on
// holds until the next change point (Choice::same_for): the world lets a
// thread's accesses through without asking.
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
    const std::optional<ThreadId> running = at.running();
    for (std::size_t i = 0; i < change_points_.size(); ++i) {
      if (change_points_[i] == at.number && running.has_value()) {
        priorities_[*running] = static_cast<std::int64_t>(depth_ - 1 - i);
      }
    }
    if ((at.current_yielding || at.current_overran) && running.has_value()) {
      priorities_[*running] = -static_cast<std::int64_t>(++yields_);
    }
    ThreadId best = enabled.front();
    for (ThreadId thread : enabled) {
      if (priorities_[thread] > priorities_[best]) best = thread;
    }
    return {best, {}, best == running ? PointsBeforeNextChange(at.number) : 0};
  }

  std::string EndExecution(std::uint64_t choice_points) override {
    estimated_choice_points_ = std::max(estimated_choice_points_, choice_points);
    return {};
  }

 private:
  std::uint32_t depth_;
  std::uint64_t initial_choice_points_;
  std::uint64_t estimate_in_force_ = 0;  // this execution's: what its change points were drawn from
  // The choice points after `number` and before the next change point.
  std::uint64_t PointsBeforeNextChange(std::uint64_t number) const {
    std::uint64_t points = UINT64_MAX;
    for (std::uint64_t change : change_points_) {
      if (change > number) points = std::min(points, change - number - 1);
    }
    return points;
  }

  Prng prng_{0};
  // Yielders and overrunners below 0, change points in [0, depth - 1), the
  // rest above.
  std::vector<std::int64_t> priorities_;
  std::uint64_t yields_ = 0;                  // and overruns
  std::vector<std::uint64_t> change_points_;  // choice point numbers (ChoicePoint::number)
  std::uint64_t estimated_choice_points_;
};

}  // namespace

std::unique_ptr<Strategy> MakePctStrategy(std::uint32_t depth, std::uint64_t initial_choice_points) {
  return std::make_unique<PctStrategy>(depth, initial_choice_points);
}

}  // namespace sim::internal
