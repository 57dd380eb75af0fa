// A spin lock built on std::atomic_flag that yields while it waits. Without
// the pass the atomics are not scheduling points, but sched_yield is, and a
// yield lets the holder run: it must pass every seed, and the same lock
// without the yield-and-retry (a bare test_and_set once) must fail.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

class YieldSpinLock {
 public:
  void lock() {
    while (flag_.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
  }
  void unlock() {
    flag_.clear(std::memory_order_release);
    std::this_thread::yield();  // a release is where others may run
  }

 private:
  std::atomic_flag flag_;
};

TEST(YieldSpinLock, CounterPassesEverySeed) {
  auto report = sim::explore(
      [] {
        YieldSpinLock lock;
        int counter = 0;
        auto work = [&] {
          for (int i = 0; i < 3; ++i) {
            std::lock_guard guard(lock);
            const int seen = counter;
            std::this_thread::yield();  // a window inside the critical section
            counter = seen + 1;
          }
        };
        std::thread a(work), b(work);
        a.join();
        b.join();
        if (counter != 6) sim::fail("lost update: " + std::to_string(counter));
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(YieldSpinLock, WithoutTheLockTheWindowLosesUpdates) {
  auto report = sim::explore(
      [] {
        int counter = 0;
        auto work = [&] {
          for (int i = 0; i < 3; ++i) {
            const int seen = counter;
            std::this_thread::yield();
            counter = seen + 1;
          }
        };
        std::thread a(work), b(work);
        a.join();
        b.join();
        if (counter != 6) sim::fail("lost update: " + std::to_string(counter));
      },
      {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_NE(report->message.find("lost update"), std::string::npos);
}

}  // namespace
