// thread_local variables with constructors and destructors: one instance
// per simulated thread, destroyed when that thread exits.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "sim/sim.h"

namespace {
// Atomic: each thread's thread_local counts here, and built with the pass
// (tests/instrumented/) a plain ++ would be a lost update simthread finds.
std::atomic<int> constructed = 0;
std::atomic<int> destroyed = 0;

struct Counted {
  Counted() { ++constructed; }
  ~Counted() { ++destroyed; }
  int value = 0;
};
thread_local Counted counted;

TEST(PerThreadThreadLocal, ConstructedAndDestroyedPerThread) {
  auto report = sim::explore(
      [] {
        constructed = destroyed = 0;
        auto use = [](int mine) {
          counted.value = mine;
          std::this_thread::yield();
          if (counted.value != mine) sim::fail("thread_local shared between threads");
        };
        std::thread a(use, 1);
        std::thread b(use, 2);
        a.join();
        if (destroyed < 1) sim::fail("a's thread_local not destroyed when a exited");
        b.join();
        if (constructed != 2 || destroyed != 2) {
          sim::fail("constructed " + std::to_string(constructed.load()) + ", destroyed " + std::to_string(destroyed.load()));
        }
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
}  // namespace
