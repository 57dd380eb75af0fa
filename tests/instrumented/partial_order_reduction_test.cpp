// partial_order_reduction_test.cpp: built with the pass, so every access
// below is a scheduling point with a footprint. dfs:P with partial-order
// reduction (por=1, strategy/race_reversal.h) must reach every final state
// that dfs:P without it (por=0) reaches, in fewer schedules where steps
// commute. Each program records its final state; the two searches' sets of
// states are compared bound by bound.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

// External linkage, so the pass must treat them as shared.
int por_test_x;
int por_test_y;
int por_test_z;
int por_test_private[3];
int por_test_seen[3];
std::mutex por_test_mutex;
std::condition_variable por_test_ready;
std::atomic<int> por_test_flag;

namespace {

using ::testing::HasSubstr;

struct Search {
  std::set<std::string> states;
  int schedules = 0;
};

// Runs `program` under dfs:`bound` to the end, recording the final state it
// returns after each schedule. Without the race detector: most programs here
// race on plain variables on purpose (store buffering, a write beside a lock
// hand-off), since the orders of racing steps are what the reduction must keep.
Search RunSearch(const std::function<std::string()>& program, int bound, bool reduce) {
  Search search;
  ::testing::internal::CaptureStderr();
  auto report = sim::explore(
      [&] {
        ++search.schedules;
        search.states.insert(program());
      },
      {.seeds = 1000000, .strategy = "dfs:" + std::to_string(bound), .por = reduce ? 1u : 0u, .races = 0});
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_THAT(said, HasSubstr("no failure in any schedule with <= " + std::to_string(bound) + " preemptions"));
  return search;
}

// Every bound up to `max_bound`: the same states either way; returns the
// schedules (without, with) reduction at `max_bound`.
std::pair<int, int> ExpectSameStates(const std::function<std::string()>& program, int max_bound) {
  std::pair<int, int> schedules;
  for (int bound = 0; bound <= max_bound; ++bound) {
    const Search full = RunSearch(program, bound, /*reduce=*/false);
    const Search reduced = RunSearch(program, bound, /*reduce=*/true);
    EXPECT_EQ(reduced.states, full.states) << "bound " << bound;
    EXPECT_LE(reduced.schedules, full.schedules) << "bound " << bound;
    schedules = {full.schedules, reduced.schedules};
  }
  return schedules;
}

// Store buffering under sequential consistency, with private work in each
// thread that commutes with everything.
std::string StoreBuffering() {
  por_test_x = por_test_y = 0;
  std::thread first([] {
    for (int i = 0; i < 3; ++i) ++por_test_private[0];
    por_test_x = 1;
    por_test_seen[0] = por_test_y;
  });
  std::thread second([] {
    for (int i = 0; i < 3; ++i) ++por_test_private[1];
    por_test_y = 1;
    por_test_seen[1] = por_test_x;
  });
  first.join();
  second.join();
  return std::to_string(por_test_seen[0]) + std::to_string(por_test_seen[1]);
}

// A lost update through two critical sections, beside a third thread whose
// work touches only its own variable.
std::string SplitCriticalSection() {
  por_test_x = 0;
  auto increment = [] {
    int seen;
    {
      std::lock_guard lock(por_test_mutex);
      seen = por_test_x;
    }
    std::lock_guard lock(por_test_mutex);
    por_test_x = seen + 1;
  };
  std::thread first(increment), second(increment);
  std::thread bystander([] {
    for (int i = 0; i < 3; ++i) ++por_test_private[2];
  });
  first.join();
  second.join();
  bystander.join();
  return std::to_string(por_test_x);
}

// Three threads on two variables: reads and writes of both, and a flag
// published with an atomic.
std::string ThreeThreads() {
  por_test_x = por_test_y = por_test_z = 0;
  por_test_flag = 0;
  std::thread a([] {
    por_test_x = 1;
    por_test_flag.store(1);
  });
  std::thread b([] {
    if (por_test_flag.load() == 1) por_test_y = por_test_x + 1;
  });
  std::thread c([] {
    por_test_z = por_test_y;
    por_test_x = 2;
  });
  a.join();
  b.join();
  c.join();
  return std::to_string(por_test_x) + std::to_string(por_test_y) + std::to_string(por_test_z);
}

// What T0 wrote before starting a thread is what the thread reads: a thread's
// steps come after the step that created it.
std::string WriteBeforeCreate() {
  por_test_x = 0;
  por_test_y = 0;
  por_test_x = 7;
  std::thread reader([] { por_test_seen[0] = por_test_x; });
  std::thread writer([] { por_test_y = 1; });
  reader.join();
  writer.join();
  return std::to_string(por_test_seen[0]) + std::to_string(por_test_y);
}

// A consumer waits on a condition variable for a count a producer raises
// under the mutex, and reads a value the producer wrote before; a bystander
// works on its own.
std::string ConditionVariableHandOff() {
  por_test_x = por_test_y = 0;
  std::thread consumer([] {
    std::unique_lock lock(por_test_mutex);
    while (por_test_y == 0) por_test_ready.wait(lock);
    por_test_seen[0] = por_test_x;
  });
  std::thread producer([] {
    por_test_x = 5;
    {
      std::lock_guard lock(por_test_mutex);
      por_test_y = 1;
    }
    por_test_ready.notify_one();
    por_test_x = 6;
  });
  std::thread bystander([] {
    for (int i = 0; i < 2; ++i) ++por_test_private[2];
  });
  consumer.join();
  producer.join();
  bystander.join();
  return std::to_string(por_test_seen[0]);
}

// An unlock acts before its own scheduling point, inside the step that
// began at the access before it: whether a try_lock in another thread
// succeeds depends on that step's order, though its announced access is
// another word.
std::string TryLockAgainstAnUnlock() {
  por_test_mutex.lock();
  std::thread tries([] {
    por_test_seen[0] = por_test_mutex.try_lock() ? 1 : 0;
    if (por_test_seen[0] == 1) por_test_mutex.unlock();
  });
  por_test_x = 1;
  por_test_mutex.unlock();
  tries.join();
  return std::to_string(por_test_seen[0]);
}

// Two consumers wait with `if` instead of `while`: a woken consumer takes
// the mutex back after the other may have taken the item (queue_if_not_while
// in bench/bugs). Whether it does depends on when the woken one's step
// takes the mutex against the other's lock.
std::string WokenWaiterRetakesTheMutex() {
  por_test_x = 0;
  auto consume = [](int slot) {
    std::unique_lock lock(por_test_mutex);
    if (por_test_x == 0) por_test_ready.wait(lock);
    por_test_seen[slot] = por_test_x;
    if (por_test_x > 0) --por_test_x;
  };
  std::thread first(consume, 0), second(consume, 1);
  std::thread producer([] {
    for (int i = 0; i < 2; ++i) {
      std::lock_guard lock(por_test_mutex);
      ++por_test_x;
      por_test_ready.notify_one();
    }
  });
  first.join();
  second.join();
  producer.join();
  return std::to_string(por_test_seen[0]) + std::to_string(por_test_seen[1]) + std::to_string(por_test_x);
}

// Main joins the writer and then writes the same variable, while a reader
// that main has not joined reads it: the join's step acts on the writer's
// end, which the writer's exit releases, so main's write comes after the
// writer's in every order, and before or after the reader's read.
std::string JoinThenWrite() {
  por_test_x = 0;
  std::thread writer([] { por_test_x = 1; });
  std::thread reader([] { por_test_seen[0] = por_test_x; });
  writer.join();
  por_test_seen[1] = por_test_x;
  por_test_x = 2;
  reader.join();
  return std::to_string(por_test_seen[0]) + std::to_string(por_test_seen[1]);
}

// A thread that blocks on a held mutex and is woken takes it in the step
// after its wait, and only the mutex: a try_lock succeeds or not by that
// step's order, and what the woken thread reads after is a point of its
// own, racing with a writer that takes no lock.
std::string LockHandOffBesideAWriter() {
  por_test_x = 0;
  por_test_y = 0;
  std::thread holder([] {
    std::lock_guard lock(por_test_mutex);
    ++por_test_y;
  });
  std::thread waiter([] {
    std::lock_guard lock(por_test_mutex);
    ++por_test_y;
    por_test_seen[0] = por_test_x;
  });
  std::thread tries([] {
    por_test_seen[1] = por_test_mutex.try_lock() ? 1 : 0;
    if (por_test_seen[1] == 1) por_test_mutex.unlock();
    por_test_x = 1;
  });
  holder.join();
  waiter.join();
  tries.join();
  return std::to_string(por_test_seen[0]) + std::to_string(por_test_seen[1]) + std::to_string(por_test_y);
}

TEST(PartialOrderReduction, StoreBufferingReachesEveryStateInFewerSchedules) {
  const auto [full, reduced] = ExpectSameStates(StoreBuffering, 2);
  EXPECT_LT(reduced, full);
}

TEST(PartialOrderReduction, SplitCriticalSectionStillLosesTheUpdate) {
  const auto [full, reduced] = ExpectSameStates(SplitCriticalSection, 2);
  EXPECT_LT(reduced, full);
  EXPECT_EQ(RunSearch(SplitCriticalSection, 1, /*reduce=*/true).states, (std::set<std::string>{"1", "2"}));
}

TEST(PartialOrderReduction, ThreeThreadsReachEveryState) { ExpectSameStates(ThreeThreads, 3); }

TEST(PartialOrderReduction, ATryLockSeesAnUnlockThatActsBeforeItsPoint) {
  ExpectSameStates(TryLockAgainstAnUnlock, 1);
  EXPECT_EQ(RunSearch(TryLockAgainstAnUnlock, 1, /*reduce=*/true).states, (std::set<std::string>{"0", "1"}));
}

TEST(PartialOrderReduction, AConditionVariableHandOffReachesEveryState) {
  const auto [full, reduced] = ExpectSameStates(ConditionVariableHandOff, 2);
  EXPECT_LT(reduced, full);
  EXPECT_EQ(RunSearch(ConditionVariableHandOff, 1, /*reduce=*/true).states, (std::set<std::string>{"5", "6"}));
}

TEST(PartialOrderReduction, AWokenWaiterRetakesTheMutexInEveryOrder) {
  ExpectSameStates(WokenWaiterRetakesTheMutex, 2);
}

TEST(PartialOrderReduction, AThreadComesAfterTheStepThatCreatedIt) {
  ExpectSameStates(WriteBeforeCreate, 2);
  EXPECT_EQ(RunSearch(WriteBeforeCreate, 2, /*reduce=*/true).states, (std::set<std::string>{"71"}));
}

TEST(PartialOrderReduction, AJoinComesAfterTheJoinedThreadsEnd) {
  const auto [full, reduced] = ExpectSameStates(JoinThenWrite, 2);
  EXPECT_LT(reduced, full);
}

TEST(PartialOrderReduction, AThreadWokenOnAMutexTakesItInEveryOrder) {
  const auto [full, reduced] = ExpectSameStates(LockHandOffBesideAWriter, 2);
  EXPECT_LT(reduced, full);
}

}  // namespace
