// A barrier that fewer threads reach than it counts is a deadlock saying how
// many arrived.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>

#include <thread>

#include "sim/sim.h"

TEST(BarrierTooFewThreads, Deadlocks) {
  auto report = sim::explore([] {
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, nullptr, 3);
    std::thread a([&] { pthread_barrier_wait(&barrier); });
    std::thread b([&] { pthread_barrier_wait(&barrier); });  // bug: the third thread is missing
    a.join();
    b.join();
  }, {.seeds = 100});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  EXPECT_THAT(report->threads, ::testing::Contains(::testing::AllOf(
                                   ::testing::HasSubstr("blocked: wait on barrier"),
                                   ::testing::HasSubstr("(2 of 3 threads arrived)"))))
      << report->render();
}

TEST(BarrierTooFewThreads, ZeroCountIsInvalid) {
  auto report = sim::explore([] {
    pthread_barrier_t barrier;
    if (pthread_barrier_init(&barrier, nullptr, 0) != EINVAL) sim::fail("a barrier for 0 threads was accepted");
  }, {.seeds = 1});
  EXPECT_FALSE(report.has_value()) << report->render();
}
