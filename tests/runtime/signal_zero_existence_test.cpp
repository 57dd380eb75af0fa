// pthread_kill(thread, 0) checks that a simulated thread exists: 0 while it
// runs, ESRCH once it has finished; an invalid signal number is EINVAL.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <thread>

#include "sim/sim.h"

TEST(SignalZeroExistence, LiveThreadExistsFinishedThreadDoesNot) {
  auto report = sim::explore(
      [] {
        std::atomic<bool> stop{false};
        bool finished = false;
        std::thread worker([&] {
          while (!stop) std::this_thread::yield();
          finished = true;
        });
        const pthread_t handle = worker.native_handle();
        if (pthread_kill(handle, 0) != 0) sim::fail("a running thread does not exist");
        if (pthread_kill(handle, 12345) != EINVAL) sim::fail("an invalid signal number was accepted");
        stop = true;
        while (!finished) std::this_thread::yield();
        std::this_thread::yield();
        const int after = pthread_kill(handle, 0);
        if (after != 0 && after != ESRCH) sim::fail("unexpected result " + std::to_string(after));
        worker.join();
        if (pthread_kill(pthread_self(), 0) != 0) sim::fail("the caller does not exist");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SignalZeroExistence, ExitedThreadIsGone) {
  auto report = sim::explore([] {
    std::thread worker([] {});
    const pthread_t handle = worker.native_handle();
    std::this_thread::sleep_for(std::chrono::seconds(1));  // the worker has certainly exited
    if (pthread_kill(handle, 0) != ESRCH) sim::fail("an exited thread still exists");
    worker.join();
  });
  EXPECT_FALSE(report.has_value()) << report->render();
}
