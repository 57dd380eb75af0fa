// A thread_local starts fresh in every execution, even though the TCBs
// (and their TLS blocks) are reused from a pool.
#include <gtest/gtest.h>

#include <thread>

#include "sim/sim.h"

namespace {
thread_local int counter = 100;  // an initial image, not zero
thread_local int zeroed;         // .tbss

TEST(PerThreadThreadLocalFresh, SecondExecutionStartsFresh) {
  int executions = 0;
  auto report = sim::explore(
      [&] {
        ++executions;
        auto use = [] {
          if (counter != 100 || zeroed != 0) sim::fail("thread_local kept a value from an earlier execution");
          counter += 5;
          zeroed = 9;
        };
        use();  // T0 too
        std::thread a(use);
        a.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_EQ(executions, 1000);
}
}  // namespace
