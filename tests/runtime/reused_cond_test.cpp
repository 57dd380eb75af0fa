// A condition variable at the address of an ended one starts fresh, with
// its own clock, as it does natively, where glibc keeps the clock in the
// condition variable's own bytes: here after a local one's frame is reused
// without pthread_cond_destroy (std::condition_variable calls it, and the
// world forgets the model there).
#include <gtest/gtest.h>
#include <pthread.h>

#include <cerrno>
#include <cstdint>
#include <ctime>
#include <string>

#include "reused_address.h"
#include "sim/sim.h"

namespace {

using reused_address::SameAddress;

std::int64_t NowNs(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return now.tv_sec * 1000000000LL + now.tv_nsec;
}

// The deadline one virtual second away times out one virtual second later
// only when it is read on the clock it was taken from.
TEST(ReusedCond, LocalRealtimeConditionAfterAMonotonicOneInALoopReadsDeadlinesOnItsClock) {
  auto report = sim::explore(
      [] {
        const pthread_cond_t realtime = PTHREAD_COND_INITIALIZER;
        pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
        SameAddress same;
        for (int i = 0; i < 2; ++i) {
          pthread_cond_t cond;
          const clockid_t clock = i == 0 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
          if (i == 0) {
            pthread_condattr_t attributes;
            pthread_condattr_init(&attributes);
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
            pthread_cond_init(&cond, &attributes);
            pthread_condattr_destroy(&attributes);
          } else {
            cond = realtime;
          }
          same.Expect(&cond);
          const std::int64_t before = NowNs(clock);
          const timespec deadline{static_cast<time_t>(before / 1000000000LL + 1),
                                  static_cast<long>(before % 1000000000LL)};
          pthread_mutex_lock(&mutex);
          const int result = pthread_cond_timedwait(&cond, &mutex, &deadline);
          pthread_mutex_unlock(&mutex);
          const std::int64_t waited = NowNs(clock) - before;
          if (result != ETIMEDOUT) sim::fail("the wait did not time out");
          if (waited != 1000000000LL) {
            sim::fail("a wait for a deadline 1 s away took " + std::to_string(waited) + " ns on its clock");
          }
        }
      },
      {.seeds = 5});
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
