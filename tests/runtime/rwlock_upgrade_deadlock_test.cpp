// Upgrading a read lock in place (rdlock, then wrlock in the same thread)
// waits for itself forever: a deadlock that names the reader. Releasing the
// read lock before taking the write lock passes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>

#include <thread>

#include "sim/sim.h"

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;

TEST(RwlockUpgradeDeadlock, UpgradeInPlaceDeadlocks) {
  auto report = sim::explore([] {
    pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
    std::thread t([&] {
      pthread_rwlock_rdlock(&lock);
      pthread_rwlock_wrlock(&lock);  // bug: waits for its own read lock
      pthread_rwlock_unlock(&lock);
      pthread_rwlock_unlock(&lock);
    });
    t.join();
  }, {.seeds = 10});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, Contains(AllOf(HasSubstr("T1 blocked: lock rwlock for writing"),
                                              HasSubstr("(read-held by T1)"))))
      << report->render();
}

TEST(RwlockUpgradeDeadlock, ReleaseThenWritePasses) {
  auto report = sim::explore([] {
    pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
    auto worker = [&] {
      pthread_rwlock_rdlock(&lock);
      pthread_rwlock_unlock(&lock);
      pthread_rwlock_wrlock(&lock);
      pthread_rwlock_unlock(&lock);
    };
    std::thread a(worker);
    std::thread b(worker);
    a.join();
    b.join();
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
