// Every execution starts at the same instant: system_clock at
// 2026-01-01T00:00:00Z, steady_clock at 1000 s, CPU-time clocks at 0; the
// clocks advance by exactly the slept amount.
#include <gtest/gtest.h>
#include <sys/time.h>

#include <chrono>
#include <ctime>
#include <thread>

#include "sim/sim.h"

using namespace std::chrono_literals;

namespace {
constexpr std::chrono::seconds kRealtimeStart{1767225600};  // 2026-01-01T00:00:00Z
constexpr std::chrono::seconds kMonotonicStart{1000};
}  // namespace

TEST(ClockStartInstant, EveryExecutionStartsAtTheSameInstantAndAdvancesBySleeps) {
  auto report = sim::explore(
      [] {
        if (std::chrono::system_clock::now().time_since_epoch() != kRealtimeStart) sim::fail("system_clock start");
        if (std::chrono::steady_clock::now().time_since_epoch() != kMonotonicStart) sim::fail("steady_clock start");
        if (time(nullptr) != kRealtimeStart.count()) sim::fail("time() start");
        timeval tv;
        gettimeofday(&tv, nullptr);
        if (tv.tv_sec != kRealtimeStart.count() || tv.tv_usec != 0) sim::fail("gettimeofday start");
        timespec cpu;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
        if (cpu.tv_sec != 0 || cpu.tv_nsec != 0) sim::fail("CPU time start");

        std::this_thread::sleep_for(1500ms);
        if (std::chrono::system_clock::now().time_since_epoch() != kRealtimeStart + 1500ms) {
          sim::fail("system_clock did not advance by the sleep");
        }
        if (std::chrono::steady_clock::now().time_since_epoch() != kMonotonicStart + 1500ms) {
          sim::fail("steady_clock did not advance by the sleep");
        }
        timespec boot;
        clock_gettime(CLOCK_BOOTTIME, &boot);
        if (boot.tv_sec != 1001 || boot.tv_nsec != 500000000) sim::fail("CLOCK_BOOTTIME");
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        if (cpu.tv_sec != 1 || cpu.tv_nsec != 500000000) sim::fail("CPU time did not follow virtual time");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ClockStartInstant, ASecondWorldStartsAgainAtTheEpoch) {
  for (int world = 0; world < 2; ++world) {
    auto report = sim::explore([] {
      if (std::chrono::steady_clock::now().time_since_epoch() != kMonotonicStart) sim::fail("not at the start");
      std::this_thread::sleep_for(1h);
    });
    EXPECT_FALSE(report.has_value()) << report->render();
  }
}
