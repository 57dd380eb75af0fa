// The thread that sleeps less wakes first, in every execution, whatever
// order the threads started sleeping in.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <unistd.h>
#include <vector>

#include "sim/sim.h"

using namespace std::chrono_literals;

TEST(SleepForOrdering, ShorterSleepWakesFirst) {
  auto report = sim::explore(
      [] {
        std::vector<int> woke;
        std::thread slow([&] {
          std::this_thread::sleep_for(3s);
          woke.push_back(3);
        });
        std::thread fast([&] {
          std::this_thread::sleep_for(1s);
          woke.push_back(1);
        });
        std::thread middle([&] {
          usleep(2000000);  // 2 s, through usleep
          woke.push_back(2);
        });
        slow.join();
        fast.join();
        middle.join();
        if (woke != std::vector<int>{1, 2, 3}) sim::fail("sleepers woke out of order");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SleepForOrdering, AbsoluteClockNanosleepWakesAtItsDeadline) {
  auto report = sim::explore([] {
    timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    timespec deadline{now.tv_sec + 5, now.tv_nsec};
    if (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline, nullptr) != 0) sim::fail("clock_nanosleep failed");
    timespec after;
    clock_gettime(CLOCK_REALTIME, &after);
    if (after.tv_sec != deadline.tv_sec || after.tv_nsec != deadline.tv_nsec) sim::fail("woke off the deadline");
    timespec relative{0, 250000000};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &relative, nullptr);
    sleep(1);
    clock_gettime(CLOCK_REALTIME, &after);
    if (after.tv_sec != deadline.tv_sec + 1 || after.tv_nsec != deadline.tv_nsec + 250000000) {
      sim::fail("relative clock_nanosleep + sleep(1) did not add 1.25 s");
    }
  });
  EXPECT_FALSE(report.has_value()) << report->render();
}
