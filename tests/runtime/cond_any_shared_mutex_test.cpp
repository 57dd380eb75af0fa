// std::condition_variable_any (an internal mutex plus a condition variable in
// libstdc++) works with any lockable, here a std::shared_mutex held for
// writing: the waiter sees the value the notifier set, under every explored
// interleaving, and a wait_for nobody notifies times out.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "sim/sim.h"

using namespace std::chrono_literals;

TEST(CondAnySharedMutex, WaiterSeesTheValue) {
  auto report = sim::explore([] {
    std::shared_mutex m;
    std::condition_variable_any cv;
    int value = 0;
    std::thread waiter([&] {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return value != 0; });
      if (value != 7) sim::fail("woke to the wrong value");
    });
    std::thread notifier([&] {
      {
        std::unique_lock lock(m);
        value = 7;
      }
      cv.notify_all();
    });
    waiter.join();
    notifier.join();
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(CondAnySharedMutex, WaitForTimesOut) {
  auto report = sim::explore([] {
    std::shared_mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    if (cv.wait_for(lock, 10s, [] { return false; })) sim::fail("predicate reported true");
    if (!lock.owns_lock()) sim::fail("lock lost");
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
}
