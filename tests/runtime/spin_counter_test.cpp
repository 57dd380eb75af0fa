// A spin lock held across a scheduling point does not hang the world: a
// waiter blocks instead of spinning, so a yield-free spin-lock counter
// completes under every interleaving. Splitting the increment over two
// critical sections loses updates, and the world finds it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>

#include <mutex>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

// A scheduling point inside a critical section, so other threads can run
// there (the runtime tests are not instrumented: only intercepted calls are
// points).
void Pause() {
  static std::mutex unrelated;
  std::lock_guard guard(unrelated);
}

template <bool kSplit>
void ThreeIncrementers() {
  pthread_spinlock_t lock;
  pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
  int counter = 0;
  auto increment = [&] {
    pthread_spin_lock(&lock);
    const int seen = counter;
    if constexpr (kSplit) {
      pthread_spin_unlock(&lock);  // bug: the read and the write are not one critical section
      pthread_spin_lock(&lock);
    } else {
      Pause();
    }
    counter = seen + 1;
    pthread_spin_unlock(&lock);
  };
  std::thread a(increment);
  std::thread b(increment);
  std::thread c(increment);
  a.join();
  b.join();
  c.join();
  pthread_spin_destroy(&lock);
  if (counter != 3) sim::fail("lost update: counter is " + std::to_string(counter));
}

}  // namespace

TEST(SpinCounter, OneCriticalSectionPasses) {
  auto report = sim::explore(ThreeIncrementers<false>, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SpinCounter, SplitCriticalSectionFails) {
  auto report = sim::explore(ThreeIncrementers<true>, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("lost update"));
}

TEST(SpinCounter, TrylockSaysBusy) {
  auto report = sim::explore([] {
    pthread_spinlock_t lock;
    pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
    pthread_spin_lock(&lock);
    std::thread other([&] {
      if (pthread_spin_trylock(&lock) != EBUSY) sim::fail("trylock of a held spin lock succeeded");
    });
    other.join();
    if (pthread_spin_destroy(&lock) != EBUSY) sim::fail("destroyed a held spin lock");
    pthread_spin_unlock(&lock);
    if (pthread_spin_trylock(&lock) != 0) sim::fail("trylock of a free spin lock failed");
    pthread_spin_unlock(&lock);
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
}
