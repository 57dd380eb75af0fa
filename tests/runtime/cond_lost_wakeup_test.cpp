// A signal sent before anyone waits is lost: the waiter sleeps forever and
// the world reports a deadlock naming the condition variable. Three-way:
// no predicate fails, a predicate set without the mutex still fails, a
// predicate set under the mutex passes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "sim/sim.h"

using ::testing::Contains;
using ::testing::HasSubstr;

TEST(CondLostWakeup, WaitWithoutPredicateDeadlocks) {
  auto report = sim::explore([] {
    std::mutex m;
    std::condition_variable cv;
    std::thread consumer([&] {
      std::unique_lock lock(m);
      cv.wait(lock);  // bug: nothing remembers a signal that came first
    });
    std::thread producer([&] {
      std::lock_guard guard(m);
      cv.notify_one();
    });
    consumer.join();
    producer.join();
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, Contains(HasSubstr("blocked: wait on condition variable"))) << report->render();
}

TEST(CondLostWakeup, PredicateSetWithoutTheMutexStillDeadlocks) {
  auto report = sim::explore([] {
    std::mutex m;
    std::condition_variable cv;
    std::atomic<bool> ready = false;
    std::thread consumer([&] {
      std::unique_lock lock(m);
      while (!ready) cv.wait(lock);
    });
    std::thread producer([&] {
      // bug: the store and the signal can both fall between the consumer's
      // check and its wait.
      ready = true;
      cv.notify_one();
    });
    consumer.join();
    producer.join();
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, Contains(HasSubstr("blocked: wait on condition variable"))) << report->render();
}

TEST(CondLostWakeup, PredicateSetUnderTheMutexPasses) {
  auto report = sim::explore([] {
    std::mutex m;
    std::condition_variable cv;
    bool ready = false;
    std::thread consumer([&] {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return ready; });
    });
    std::thread producer([&] {
      {
        std::lock_guard guard(m);
        ready = true;
      }
      cv.notify_one();
    });
    consumer.join();
    producer.join();
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
