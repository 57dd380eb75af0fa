// Relocking a spin lock the thread holds spins forever on a real machine;
// in a world it is a deadlock that names the holder, not a step limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>

#include "sim/sim.h"

TEST(SpinRelockDeadlock, NamesTheHolder) {
  auto report = sim::explore([] {
    pthread_spinlock_t lock;
    pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
    pthread_spin_lock(&lock);
    pthread_spin_lock(&lock);  // bug: not recursive
  }, {.seeds = 10});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, ::testing::Contains(::testing::AllOf(
                                   ::testing::HasSubstr("T0 'main' blocked: lock spin lock"),
                                   ::testing::HasSubstr("(held by T0)"))))
      << report->render();
}
