// A condition-free polling loop (sleep, then look at a flag) terminates:
// the clock jumps to the next deadline whenever every thread waits.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "sim/sim.h"

using namespace std::chrono_literals;

TEST(SleepPollingLoop, PollingWithSleepForTerminates) {
  int executions = 0;
  auto report = sim::explore(
      [&] {
        ++executions;
        std::atomic<bool> done{false};
        const auto start = std::chrono::steady_clock::now();
        std::thread worker([&] {
          std::this_thread::sleep_for(50ms);
          done = true;
        });
        int polls = 0;
        while (!done) {
          std::this_thread::sleep_for(1ms);
          ++polls;
        }
        worker.join();
        const auto elapsed = std::chrono::steady_clock::now() - start;
        if (elapsed < 50ms || elapsed > 51ms) sim::fail("the poller saw the flag outside [50 ms, 51 ms]");
        if (polls < 50 || polls > 51) sim::fail("polled " + std::to_string(polls) + " times");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_EQ(executions, 1000);
}

TEST(SleepPollingLoop, YieldLoopLetsTimeAdvance) {
  // sched_yield is a yield point: a thread that yields until a sleeper acts
  // lets the clock jump to the sleeper's deadline instead of livelocking.
  auto report = sim::explore(
      [] {
        std::atomic<bool> done{false};
        std::thread worker([&] {
          std::this_thread::sleep_for(1s);
          done = true;
        });
        while (!done) std::this_thread::yield();
        worker.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
