// pthread_cond_timedwait measures its deadline on the clock the condition
// variable was created with (pthread_condattr_setclock), and
// pthread_cond_clockwait on the clock it is given.
//
// T1 waits until 5 s after the world's start on the monotonic clock; T2
// times out at 2 s after the start on the realtime clock, then signals T1.
// Read on the right clock T1's deadline is later, so the signal reaches it;
// read on the wrong one it would lie decades in the past (or future) and T1
// would time out at once (or the signal would find T1 still waiting after a
// jump far beyond 5 s: either way not the 0 the test expects).
#include <gtest/gtest.h>

#include <pthread.h>

#include <cerrno>
#include <thread>

#include "sim/sim.h"

namespace {
// The world's virtual epochs (world.h): CLOCK_REALTIME starts at
// 2026-01-01T00:00:00Z and CLOCK_MONOTONIC at 1000 s.
constexpr time_t kRealtimeEpochSeconds = 1767225600;
constexpr time_t kMonotonicEpochSeconds = 1000;

template <typename WaitFiveSecondsMonotonic>
void SignalAfterTwoSeconds(WaitFiveSecondsMonotonic wait_five_seconds) {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t timer = PTHREAD_COND_INITIALIZER;  // realtime
  pthread_cond_t cv;
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&cv, &attributes);
  int result = -1;
  std::thread waiter([&] {
    pthread_mutex_lock(&m);
    result = wait_five_seconds(&cv, &m);
    pthread_mutex_unlock(&m);
  });
  std::thread signaller([&] {
    pthread_mutex_lock(&m);
    const struct timespec two_seconds_in = {kRealtimeEpochSeconds + 2, 0};
    if (pthread_cond_timedwait(&timer, &m, &two_seconds_in) != ETIMEDOUT) sim::fail("timer did not time out");
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
  });
  waiter.join();
  signaller.join();
  if (result != 0) sim::fail("waiter returned " + std::to_string(result) + " instead of being signalled");
  pthread_cond_destroy(&cv);
}

}  // namespace

TEST(CondClock, TimedwaitUsesTheAttributeClock) {
  auto report = sim::explore([] {
    SignalAfterTwoSeconds([](pthread_cond_t* cv, pthread_mutex_t* m) {
      const struct timespec five_seconds_in = {kMonotonicEpochSeconds + 5, 0};
      return pthread_cond_timedwait(cv, m, &five_seconds_in);
    });
  }, {.seeds = 200});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(CondClock, ClockwaitUsesTheGivenClock) {
  auto report = sim::explore([] {
    SignalAfterTwoSeconds([](pthread_cond_t* cv, pthread_mutex_t* m) {
      const struct timespec five_seconds_in = {kMonotonicEpochSeconds + 5, 0};
      return pthread_cond_clockwait(cv, m, CLOCK_MONOTONIC, &five_seconds_in);
    });
  }, {.seeds = 200});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(CondClock, ClockwaitRejectsOtherClocks) {
  auto report = sim::explore([] {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    const struct timespec soon = {kMonotonicEpochSeconds + 1, 0};
    pthread_mutex_lock(&m);
    if (pthread_cond_clockwait(&cv, &m, CLOCK_PROCESS_CPUTIME_ID, &soon) != EINVAL) sim::fail("clock accepted");
    pthread_mutex_unlock(&m);
  }, {.seeds = 1});
  EXPECT_FALSE(report.has_value()) << report->render();
}
