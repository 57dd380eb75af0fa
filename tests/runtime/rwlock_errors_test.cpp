// The error codes POSIX gives reader-writer locks, inside a world: EBUSY
// from the try variants, EDEADLK for a writer relocking, ETIMEDOUT from a
// timed lock after its virtual deadline, EINVAL for a bad clock, EPERM for
// an unlock by a non-holder, EBUSY from destroying a held lock.
#include <gtest/gtest.h>

#include <pthread.h>

#include <cerrno>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {
// The world's virtual epochs (world.h).
constexpr time_t kRealtimeEpochSeconds = 1767225600;
constexpr time_t kMonotonicEpochSeconds = 1000;

void Expect(int got, int want, const char* what) {
  if (got != want) sim::fail(std::string(what) + ": got " + std::to_string(got) + ", want " + std::to_string(want));
}
}  // namespace

TEST(RwlockErrors, AsPosixSays) {
  auto report = sim::explore([] {
    pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
    const struct timespec realtime_ten = {kRealtimeEpochSeconds + 10, 0};
    const struct timespec monotonic_ten = {kMonotonicEpochSeconds + 10, 0};
    Expect(pthread_rwlock_wrlock(&lock), 0, "wrlock");
    Expect(pthread_rwlock_wrlock(&lock), EDEADLK, "wrlock while writing");
    Expect(pthread_rwlock_rdlock(&lock), EDEADLK, "rdlock while writing");
    Expect(pthread_rwlock_destroy(&lock), EBUSY, "destroy while held");
    std::thread other([&] {
      Expect(pthread_rwlock_tryrdlock(&lock), EBUSY, "tryrdlock");
      Expect(pthread_rwlock_trywrlock(&lock), EBUSY, "trywrlock");
      Expect(pthread_rwlock_timedrdlock(&lock, &realtime_ten), ETIMEDOUT, "timedrdlock");
      Expect(pthread_rwlock_clockwrlock(&lock, CLOCK_MONOTONIC, &monotonic_ten), ETIMEDOUT, "clockwrlock");
      Expect(pthread_rwlock_clockrdlock(&lock, CLOCK_THREAD_CPUTIME_ID, &monotonic_ten), EINVAL, "clock");
      Expect(pthread_rwlock_unlock(&lock), EPERM, "unlock by a non-holder");
    });
    other.join();
    Expect(pthread_rwlock_unlock(&lock), 0, "unlock");
    Expect(pthread_rwlock_rdlock(&lock), 0, "rdlock");
    Expect(pthread_rwlock_rdlock(&lock), 0, "recursive rdlock (readers preferred)");
    Expect(pthread_rwlock_trywrlock(&lock), EBUSY, "trywrlock while read");
    Expect(pthread_rwlock_timedwrlock(&lock, &realtime_ten), ETIMEDOUT, "timedwrlock over its own read locks");
    Expect(pthread_rwlock_unlock(&lock), 0, "read unlock");
    Expect(pthread_rwlock_unlock(&lock), 0, "read unlock");
    Expect(pthread_rwlock_destroy(&lock), 0, "destroy");
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
}
