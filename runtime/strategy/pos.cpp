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
        thread.priority = prng_.Next();
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
    return {enabled[best], {}};
  }

 private:
  static constexpr std::uint64_t kNeverSeen = ~std::uint64_t{0};

  struct PerThread {
    std::uint64_t priority = 0;
    std::uint64_t seen_points = kNeverSeen;  // thread_points of the event `priority` belongs to
  };

  Prng prng_{0};
  std::vector<PerThread> threads_;
};

}  // namespace

std::unique_ptr<Strategy> MakePosStrategy() { return std::make_unique<PosStrategy>(); }

}  // namespace sim::internal
