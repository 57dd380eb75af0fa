// A deadlock on a reader-writer lock says who holds it and how: "held by T1
// for writing", or every reader, "read-held by T1, T2".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>

#include <thread>

#include "sim/sim.h"

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;

TEST(RwlockDeadlockReport, NamesTheWriter) {
  auto report = sim::explore([] {
    pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
    std::thread writer([&] { pthread_rwlock_wrlock(&lock); });  // bug: never unlocks
    writer.join();
    std::thread reader([&] { pthread_rwlock_rdlock(&lock); });
    reader.join();
  }, {.seeds = 10});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, Contains(AllOf(HasSubstr("T2 blocked: lock rwlock for reading"),
                                              HasSubstr("(held by T1 for writing)"))))
      << report->render();
}

TEST(RwlockDeadlockReport, NamesEveryReader) {
  auto report = sim::explore([] {
    pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
    std::thread r1([&] { pthread_rwlock_rdlock(&lock); });  // bug: never unlocks
    r1.join();
    std::thread r2([&] { pthread_rwlock_rdlock(&lock); });
    r2.join();
    pthread_rwlock_wrlock(&lock);
  }, {.seeds = 10});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, Contains(AllOf(HasSubstr("T0 'main' blocked: lock rwlock for writing"),
                                              HasSubstr("(read-held by T1, T2)"))))
      << report->render();
}
