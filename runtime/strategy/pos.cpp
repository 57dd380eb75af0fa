// pos.cpp: partial order sampling.
//
// Yuan, Yang, Gu, "Partial Order Aware Concurrency Sampling", CAV 2018.
// Every pending event gets a random priority; the enabled event with the
// highest priority runs; after it runs, every pending event that races with
// it (same location and at least one write, or the same sync object) gets a
// fresh random priority. Resetting the racing events is what makes the
// sampling aware of the partial order: orders of events that commute are
// not sampled again and again, so each distinct partial order is reached
// with a probability far above random walk's for the same interleaving.
//
// Departures from the paper:
// - A thread has one pending event, the operation it announced at its last
//   scheduling point (ChoicePoint::pending), so a priority belongs to a
//   thread until that operation changes: a thread whose `thread_points`
//   moved since the last choice point (it ran, it blocked and was woken,
//   it ran alone while every other thread was blocked) has a new event and
//   gets a fresh priority. The paper's "reassign when it becomes pending".
// - The strategy sees only choice points. Events run while a single thread
//   was enabled are not seen, so the races they had with blocked threads'
//   events are not either; those threads' events are new by then (they
//   blocked), so they get fresh priorities all the same.
// - An operation the world does not know (a thread that has not reached its
//   first scheduling point, a sleep, a fence, a signal) races with every
//   other: its priority and theirs are reset, which errs towards random
//   walk rather than towards missing a race.
// - Locations are compared by 8-byte word (strategy.h, Conflict), since the
//   hooks do not pass sizes to the world.
//
// Drawing ahead: when the running thread goes on, the priorities of its next
// events are drawn at once (up to kDrawnAhead), each used at the choice
// point of its number as a fresh draw would be there. The leading ones above
// every other enabled thread's priority are points at which it goes on
// again (Choice::same_for), unless one of its accesses races with another
// thread's pending event (which resets that priority): the world checks
// that before going on unasked. Whether the world asks or not, the draws
// happen in the same order, so a run that asks at every point (the rerun
// that records decisions) is the same execution.
#include <algorithm>
#include <vector>

#include "core/prng.h"
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

class PosStrategy final : public Strategy {
 public:
  void BeginExecution(std::uint64_t seed) override {
    prng_ = Prng(seed);
    threads_.clear();
    ahead_.clear();
  }

  bool WantsPendingOperations() const override { return true; }

  // Its priority is drawn where its first event is first seen.
  void OnThreadCreated(ThreadId thread) override {
    if (threads_.size() <= thread) threads_.resize(thread + 1);
    threads_[thread] = PerThread{};
  }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    auto pending = [&at](std::size_t i) { return at.pending.empty() ? PendingOperation{} : at.pending[i]; };
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      PerThread& thread = threads_[enabled[i]];
      const PendingOperation operation = pending(i);
      if (at.pending.empty() || operation.thread_points != thread.seen_points) {
        thread.priority = NextPriority(enabled[i], at.number);
        thread.seen_points = operation.thread_points;
      }
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < enabled.size(); ++i) {
      if (threads_[enabled[i]].priority > threads_[enabled[best]].priority) best = i;
    }
    // The chosen event runs now; its thread's next event is new (its points
    // will have moved), and every event racing with it is sampled afresh.
    const PendingOperation runs = pending(best);
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      if (i != best && Conflict(pending(i), runs)) threads_[enabled[i]].priority = prng_.Next();
    }
    if (enabled[best] != at.running() || at.pending.empty()) return {enabled[best], {}};
    std::uint64_t highest_other = 0;
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      if (i != best) highest_other = std::max(highest_other, threads_[enabled[i]].priority);
    }
    return {enabled[best], {}, PointsGoingOn(enabled[best], at.number, highest_other)};
  }

 private:
  static constexpr std::size_t kDrawnAhead = 1024;

  // The priority of `thread`'s event at choice point `number`: drawn ahead,
  // or now.
  std::uint64_t NextPriority(ThreadId thread, std::uint64_t number) {
    if (thread == ahead_thread_ && number >= ahead_first_ && number - ahead_first_ < ahead_.size()) {
      return ahead_[number - ahead_first_];
    }
    return prng_.Next();
  }

  // The choice points after `number` at which `thread`, going on now, goes
  // on again while nothing else changes: its drawn-ahead priorities above
  // `highest_other`, drawn now unless they already cover number + 1.
  std::uint64_t PointsGoingOn(ThreadId thread, std::uint64_t number, std::uint64_t highest_other) {
    const std::uint64_t next = number + 1;
    if (thread != ahead_thread_ || next < ahead_first_ || next - ahead_first_ >= ahead_.size()) {
      ahead_thread_ = thread;
      ahead_first_ = next;
      ahead_.resize(kDrawnAhead);
      // Drawn into place; every draw but a last one below highest_other leads.
      for (std::size_t i = 0; i < kDrawnAhead; ++i) {
        ahead_[i] = prng_.Next();
        if (ahead_[i] <= highest_other) {
          ahead_.resize(i + 1);
          return i;
        }
      }
      return kDrawnAhead;
    }
    std::uint64_t points = 0;
    for (std::size_t i = next - ahead_first_; i < ahead_.size() && ahead_[i] > highest_other; ++i) ++points;
    return points;
  }

  static constexpr std::uint64_t kNeverSeen = ~std::uint64_t{0};

  struct PerThread {
    std::uint64_t priority = 0;
    std::uint64_t seen_points = kNeverSeen;  // thread_points of the event `priority` belongs to
  };

  Prng prng_{0};
  std::vector<PerThread> threads_;
  // The priorities of ahead_thread_'s events at choice points ahead_first_,
  // ahead_first_ + 1, ...
  ThreadId ahead_thread_ = 0;
  std::uint64_t ahead_first_ = 0;
  std::vector<std::uint64_t> ahead_;
};

}  // namespace

std::unique_ptr<Strategy> MakePosStrategy() { return std::make_unique<PosStrategy>(); }

}  // namespace sim::internal
