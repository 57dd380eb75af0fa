// The world tells a strategy that asks (pos) what each enabled thread does
// next: the sync object it announced, whether it only reads it, and a
// progress count that changes with every new operation; a thread that has
// not reached its first scheduling point is "not known" (null object), and
// a strategy that does not ask gets nothing.
#include <gtest/gtest.h>

#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "core/world.h"

namespace {

using sim::internal::Choice;
using sim::internal::ChoicePoint;
using sim::internal::PendingOperation;
using sim::internal::Strategy;
using sim::internal::ThreadId;
using sim::internal::World;

struct Seen {
  std::vector<ThreadId> enabled;
  std::vector<PendingOperation> pending;
};

class RecordingStrategy final : public Strategy {
 public:
  explicit RecordingStrategy(bool wants) : wants_(wants) {}
  void BeginExecution(std::uint64_t) override {}
  bool WantsPendingOperations() const override { return wants_; }
  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    seen.push_back({{enabled.begin(), enabled.end()}, {at.pending.begin(), at.pending.end()}});
    return {enabled.back(), {}};  // the newest thread: every thread is seen before its first point
  }
  std::vector<Seen> seen;

 private:
  bool wants_;
};

std::mutex exclusive;
std::shared_mutex shared;

void LockThenReadLock() {
  std::thread writer([] { std::lock_guard g(exclusive); });
  std::thread reader([] { std::shared_lock g(shared); });
  writer.join();
  reader.join();
}

std::vector<Seen> ChoicePointsSeen(bool wants) {
  RecordingStrategy strategy(wants);
  World world(sim::Options{}, strategy, 0);
  EXPECT_EQ(world.Run(LockThenReadLock).verdict, sim::Verdict::kPass);
  return strategy.seen;
}

TEST(PendingOperations, EachEnabledThreadsNextOperationIsKnown) {
  const std::vector<Seen> seen = ChoicePointsSeen(/*wants=*/true);
  ASSERT_FALSE(seen.empty());
  bool lock = false, shared_lock = false, not_yet_known = false;
  for (const Seen& point : seen) {
    ASSERT_EQ(point.pending.size(), point.enabled.size());
    for (const PendingOperation& operation : point.pending) {
      lock |= operation.object == &exclusive && operation.writes;
      shared_lock |= operation.object == &shared && !operation.writes;
      not_yet_known |= operation.object == nullptr;
    }
  }
  EXPECT_TRUE(lock) << "the writer's lock of `exclusive`";
  EXPECT_TRUE(shared_lock) << "the reader's shared lock of `shared`, which only reads";
  EXPECT_TRUE(not_yet_known) << "a thread before its first scheduling point";
}

TEST(PendingOperations, TheProgressCountMovesOnlyWithANewOperation) {
  const std::vector<Seen> seen = ChoicePointsSeen(/*wants=*/true);
  // T0 waits at one operation while the chosen (newest) thread runs, then
  // goes on to the next: its count stays, then moves.
  std::vector<std::uint64_t> main_counts;
  for (const Seen& point : seen) {
    for (std::size_t i = 0; i < point.enabled.size(); ++i) {
      if (point.enabled[i] == 0) main_counts.push_back(point.pending[i].thread_points);
    }
  }
  ASSERT_GE(main_counts.size(), 2u);
  bool stayed = false, moved = false;
  for (std::size_t i = 1; i < main_counts.size(); ++i) {
    EXPECT_GE(main_counts[i], main_counts[i - 1]);
    stayed |= main_counts[i] == main_counts[i - 1];
    moved |= main_counts[i] > main_counts[i - 1];
  }
  EXPECT_TRUE(stayed);
  EXPECT_TRUE(moved);
}

TEST(PendingOperations, AStrategyThatDoesNotAskGetsNone) {
  const std::vector<Seen> seen = ChoicePointsSeen(/*wants=*/false);
  ASSERT_FALSE(seen.empty());
  for (const Seen& point : seen) EXPECT_TRUE(point.pending.empty());
}

}  // namespace
