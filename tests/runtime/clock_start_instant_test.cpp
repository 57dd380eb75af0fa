// Every execution starts at the same instant: system_clock at
// 2026-01-01T00:00:00Z, steady_clock at 1000 s, CPU-time clocks at 0; the
// clocks advance by exactly the slept amount.
#include <gtest/gtest.h>
#include <sys/time.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <ctime>
#include <thread>

#include "sim/sim.h"

using namespace std::chrono_literals;

namespace {
constexpr std::chrono::seconds kRealtimeStart{1767225600};  // 2026-01-01T00:00:00Z
constexpr std::chrono::seconds kMonotonicStart{1000};
}  // namespace

// Each clock in an execution of its own: a thread's reads after its first
// since it last waited move the clock on (clock_busy_wait_test.cpp), and
// this is about where each clock starts and that a sleep moves it exactly.
struct ClockCase {
  const char* name;
  std::int64_t (*read_ns)();  // the clock's reading, in ns
  std::int64_t start_ns;      // where every execution starts it
};

std::int64_t SystemClockNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
std::int64_t SteadyClockNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
std::int64_t TimeNs() { return static_cast<std::int64_t>(time(nullptr)) * 1000000000; }
std::int64_t GettimeofdayNs() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<std::int64_t>(tv.tv_sec) * 1000000000 + tv.tv_usec * 1000;
}
std::int64_t ClockNs(clockid_t clock) {
  timespec time;
  clock_gettime(clock, &time);
  return static_cast<std::int64_t>(time.tv_sec) * 1000000000 + time.tv_nsec;
}
std::int64_t BoottimeNs() { return ClockNs(CLOCK_BOOTTIME); }
std::int64_t ProcessCpuNs() { return ClockNs(CLOCK_PROCESS_CPUTIME_ID); }
std::int64_t ThreadCpuNs() { return ClockNs(CLOCK_THREAD_CPUTIME_ID); }

constexpr std::int64_t kRealtimeStartNs = kRealtimeStart.count() * 1000000000;
constexpr std::int64_t kMonotonicStartNs = kMonotonicStart.count() * 1000000000;

TEST(ClockStartInstant, EveryExecutionStartsAtTheSameInstantAndAdvancesBySleeps) {
  const ClockCase clocks[] = {
      {"system_clock", SystemClockNs, kRealtimeStartNs},  {"steady_clock", SteadyClockNs, kMonotonicStartNs},
      {"time()", TimeNs, kRealtimeStartNs},               {"gettimeofday", GettimeofdayNs, kRealtimeStartNs},
      {"CLOCK_BOOTTIME", BoottimeNs, kMonotonicStartNs},  {"CLOCK_PROCESS_CPUTIME_ID", ProcessCpuNs, 0},
      {"CLOCK_THREAD_CPUTIME_ID", ThreadCpuNs, 0},
  };
  for (const ClockCase& clock : clocks) {
    auto report = sim::explore(
        [&clock] {
          if (clock.read_ns() != clock.start_ns) sim::fail(std::string(clock.name) + " start");
          std::this_thread::sleep_for(2s);  // whole seconds: time() has no finer grain
          if (clock.read_ns() != clock.start_ns + 2000000000) {
            sim::fail(std::string(clock.name) + " did not advance by exactly the sleep");
          }
        },
        {.seeds = 200});
    EXPECT_FALSE(report.has_value()) << report->render();
  }
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
