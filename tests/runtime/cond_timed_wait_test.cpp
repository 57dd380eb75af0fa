// Timed waits on a condition variable run on virtual time: a wait nobody
// signals times out (costing no real time) and returns with the mutex held
// again; a wait that another thread can still signal never times out first,
// because the clock only moves when no thread can run.
#include <gtest/gtest.h>

#include <pthread.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "sim/sim.h"

using namespace std::chrono_literals;

namespace {
// The world's virtual realtime epoch (world.h): every world starts at
// 2026-01-01T00:00:00Z.
constexpr time_t kRealtimeEpochSeconds = 1767225600;
}  // namespace

TEST(CondTimedWait, UnsignalledWaitTimesOutHoldingTheMutex) {
  auto report = sim::explore([] {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_t m;
    pthread_mutex_init(&m, &attributes);
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    pthread_mutex_lock(&m);
    const struct timespec ten_seconds_in = {kRealtimeEpochSeconds + 10, 0};
    if (pthread_cond_timedwait(&cv, &m, &ten_seconds_in) != ETIMEDOUT) sim::fail("timedwait did not time out");
    // An error-checking mutex says EPERM when the caller does not hold it.
    if (pthread_mutex_unlock(&m) != 0) sim::fail("timed-out wait returned without the mutex");
    const struct timespec bad = {kRealtimeEpochSeconds + 10, 1000000000};
    pthread_mutex_lock(&m);
    if (pthread_cond_timedwait(&cv, &m, &bad) != EINVAL) sim::fail("tv_nsec of 1e9 accepted");
    pthread_mutex_unlock(&m);
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(CondTimedWait, StdWaitForTimesOut) {
  auto report = sim::explore([] {
    std::mutex m;
    std::condition_variable cv;
    std::unique_lock lock(m);
    if (cv.wait_for(lock, 10s, [] { return false; })) sim::fail("predicate reported true");
    if (!lock.owns_lock()) sim::fail("lock lost");
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(CondTimedWait, SignalBeatsTheDeadline) {
  auto report = sim::explore([] {
    std::mutex m;
    std::condition_variable cv;
    bool ready = false;
    std::thread waiter([&] {
      std::unique_lock lock(m);
      if (!cv.wait_for(lock, 10s, [&] { return ready; })) sim::fail("timed out while the signaller could run");
    });
    std::thread signaller([&] {
      std::lock_guard guard(m);
      ready = true;
      cv.notify_one();
    });
    waiter.join();
    signaller.join();
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
