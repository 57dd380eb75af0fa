// A named semaphore outlives the execution (it lives in /dev/shm), so
// sem_open inside a world ends the execution as unsupported, naming the call
// and the semaphore.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <semaphore.h>

#include "sim/sim.h"

TEST(SemaphoreNamedUnsupported, SemOpenEndsTheExecution) {
  auto report = sim::explore([] {
    sem_t* semaphore = sem_open("/simthread-test", O_CREAT, 0600, 1);
    if (semaphore != SEM_FAILED) sem_close(semaphore);
  }, {.seeds = 1});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kUnsupported) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("sem_open(\"/simthread-test\") called in T0"));
}
