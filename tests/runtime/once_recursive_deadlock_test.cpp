// Calling std::call_once on a flag from inside its own routine waits for
// itself forever, as in glibc: a deadlock naming the thread that runs the
// routine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "sim/sim.h"

TEST(OnceRecursiveDeadlock, Deadlocks) {
  auto report = sim::explore([] {
    std::once_flag flag;
    std::thread t([&] {
      std::call_once(flag, [&] {
        std::call_once(flag, [] {});  // bug: re-enters its own once flag
      });
    });
    t.join();
  }, {.seeds = 10});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, ::testing::Contains(::testing::AllOf(
                                   ::testing::HasSubstr("T1 blocked: wait for pthread_once routine"),
                                   ::testing::HasSubstr("(its routine is running in T1)"))))
      << report->render();
}
