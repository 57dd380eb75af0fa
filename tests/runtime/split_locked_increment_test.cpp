#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "sim/sim.h"

TEST(Smoke, MutexCounterPasses) {
  auto report = sim::explore([] {
    std::mutex m;
    int counter = 0;
    std::thread a([&] { std::lock_guard g(m); ++counter; });
    std::thread b([&] { std::lock_guard g(m); ++counter; });
    a.join();
    b.join();
    if (counter != 2) sim::fail("lost update");
  }, {.seeds = 100});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(Smoke, SplitLockedIncrementFails) {
  auto report = sim::explore([] {
    std::mutex m;
    int counter = 0;
    auto increment = [&] {
      int seen;
      { std::lock_guard g(m); seen = counter; }
      { std::lock_guard g(m); counter = seen + 1; }
    };
    std::thread a(increment);
    std::thread b(increment);
    a.join();
    b.join();
    if (counter != 2) sim::fail("lost update: counter is " + std::to_string(counter));
  }, {.seeds = 100});
  ASSERT_TRUE(report.has_value());
  std::fprintf(stderr, "%s", report->render().c_str());
}
