// Semaphore waits with deadlines run on virtual time and report errors
// through errno as POSIX says: ETIMEDOUT after the deadline, EAGAIN from
// sem_trywait, EINVAL for a bad timespec or clock. A post that another
// thread can still make arrives before any deadline.
#include <gtest/gtest.h>

#include <semaphore.h>

#include <cerrno>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {
// The world's virtual epochs (world.h).
constexpr time_t kRealtimeEpochSeconds = 1767225600;
constexpr time_t kMonotonicEpochSeconds = 1000;

void ExpectError(int result, int error, const char* what) {
  if (result != -1 || errno != error) {
    sim::fail(std::string(what) + ": got " + std::to_string(result) + " errno " + std::to_string(errno));
  }
}
}  // namespace

TEST(SemaphoreTimedWait, TimesOutAndReportsErrors) {
  auto report = sim::explore([] {
    sem_t semaphore;
    sem_init(&semaphore, 0, 0);
    const struct timespec realtime_ten = {kRealtimeEpochSeconds + 10, 0};
    const struct timespec monotonic_ten = {kMonotonicEpochSeconds + 10, 0};
    const struct timespec bad = {kRealtimeEpochSeconds, -1};
    ExpectError(sem_trywait(&semaphore), EAGAIN, "trywait");
    ExpectError(sem_timedwait(&semaphore, &realtime_ten), ETIMEDOUT, "timedwait");
    ExpectError(sem_clockwait(&semaphore, CLOCK_MONOTONIC, &monotonic_ten), ETIMEDOUT, "clockwait");
    ExpectError(sem_timedwait(&semaphore, &bad), EINVAL, "bad timespec");
    ExpectError(sem_clockwait(&semaphore, CLOCK_PROCESS_CPUTIME_ID, &monotonic_ten), EINVAL, "bad clock");
    sem_post(&semaphore);
    if (sem_timedwait(&semaphore, &realtime_ten) != 0) sim::fail("timedwait with a permit failed");
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SemaphoreTimedWait, PostBeatsTheDeadline) {
  auto report = sim::explore([] {
    sem_t semaphore;
    sem_init(&semaphore, 0, 0);
    std::thread poster([&] { sem_post(&semaphore); });
    const struct timespec monotonic_ten = {kMonotonicEpochSeconds + 10, 0};
    if (sem_clockwait(&semaphore, CLOCK_MONOTONIC, &monotonic_ten) != 0) {
      sim::fail("timed out while the poster could run");
    }
    poster.join();
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SemaphoreTimedWait, WaitNobodyPostsDeadlocks) {
  auto report = sim::explore([] {
    sem_t semaphore;
    sem_init(&semaphore, 0, 0);
    sem_wait(&semaphore);
  }, {.seeds = 1});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock) << report->render();
  ASSERT_EQ(report->threads.size(), 1u);
  EXPECT_NE(report->threads[0].find("blocked: wait on semaphore"), std::string::npos) << report->render();
}

TEST(SemaphoreTimedWait, DestroyWithWaitersIsBusy) {
  auto report = sim::explore([] {
    sem_t semaphore;
    sem_init(&semaphore, 0, 0);
    std::thread waiter([&] { sem_wait(&semaphore); });
    // Let the waiter block first: a timed wait that nobody posts returns only
    // once no other thread can run.
    sem_t timer;
    sem_init(&timer, 0, 0);
    const struct timespec monotonic_ten = {kMonotonicEpochSeconds + 10, 0};
    sem_clockwait(&timer, CLOCK_MONOTONIC, &monotonic_ten);
    ExpectError(sem_destroy(&semaphore), EBUSY, "destroy with a waiter");
    sem_post(&semaphore);
    waiter.join();
    if (sem_destroy(&semaphore) != 0) sim::fail("destroy without waiters failed");
  }, {.seeds = 100});
  EXPECT_FALSE(report.has_value()) << report->render();
}
