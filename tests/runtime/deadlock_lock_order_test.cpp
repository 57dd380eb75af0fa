// An ABBA lock-order inversion is reported as a deadlock naming both
// threads, both mutexes and who holds each; the consistent order passes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

void Transfer(std::mutex& from, std::mutex& to) {
  std::lock_guard first(from);
  std::lock_guard second(to);
}

TEST(DeadlockLockOrder, AbbaIsReportedAsDeadlock) {
  auto report = sim::explore(
      [] {
        std::mutex a, b;
        std::thread one([&] { Transfer(a, b); });
        std::thread two([&] { Transfer(b, a); });
        one.join();
        two.join();
      },
      {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock);
  EXPECT_THAT(report->message, HasSubstr("3 threads are blocked"));
  const std::string rendered = report->render();
  EXPECT_THAT(rendered, HasSubstr("T1 blocked: lock mutex"));
  EXPECT_THAT(rendered, HasSubstr("(held by T2)"));
  EXPECT_THAT(rendered, HasSubstr("T2 blocked: lock mutex"));
  EXPECT_THAT(rendered, HasSubstr("(held by T1)"));
  EXPECT_THAT(rendered, HasSubstr("T0 'main' blocked: join thread"));
  EXPECT_THAT(rendered, HasSubstr("deadlock_lock_order_test.cpp:17"));  // the inner lock_guard
}

TEST(DeadlockLockOrder, ConsistentOrderPassesEverySeed) {
  auto report = sim::explore(
      [] {
        std::mutex a, b;
        std::thread one([&] { Transfer(a, b); });
        std::thread two([&] { Transfer(a, b); });
        one.join();
        two.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(DeadlockLockOrder, ScopedLockOfBothPassesEverySeed) {
  auto report = sim::explore(
      [] {
        std::mutex a, b;
        std::thread one([&] { std::scoped_lock both(a, b); });
        std::thread two([&] { std::scoped_lock both(b, a); });
        one.join();
        two.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(DeadlockLockOrder, RelockingANormalMutexIsADeadlock) {
  auto report = sim::explore([] {
    std::mutex m;
    m.lock();
    m.lock();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock);
  EXPECT_THAT(report->render(), HasSubstr("T0 'main' blocked: lock mutex"));
  EXPECT_THAT(report->render(), HasSubstr("(held by T0)"));
}

}  // namespace
