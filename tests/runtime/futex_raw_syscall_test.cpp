// syscall(SYS_futex, ...) itself: the value check, relative and absolute
// timeouts in virtual time, wake counts and bitsets, and the operations a
// world does not model.
#include <gtest/gtest.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <ctime>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

long Futex(std::uint32_t* address, int op, std::uint32_t value, const timespec* timeout = nullptr,
           std::uint32_t bitset = FUTEX_BITSET_MATCH_ANY) {
  return syscall(SYS_futex, address, op, value, timeout, nullptr, bitset);
}

std::int64_t NowNs(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return now.tv_sec * 1000000000LL + now.tv_nsec;
}

TEST(FutexRawSyscall, WaitOnAChangedValueFailsWithEagain) {
  auto report = sim::explore([] {
    std::uint32_t word = 1;
    errno = 0;
    if (Futex(&word, FUTEX_WAIT_PRIVATE, 0) != -1 || errno != EAGAIN) sim::fail("expected -1/EAGAIN");
  });
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(FutexRawSyscall, TimeoutsAdvanceVirtualTimeExactly) {
  auto report = sim::explore([] {
    std::uint32_t word = 0;
    // FUTEX_WAIT: relative, even with the realtime flag.
    std::int64_t before = NowNs(CLOCK_MONOTONIC);
    timespec relative{3, 0};
    errno = 0;
    if (Futex(&word, FUTEX_WAIT, 0, &relative) != -1 || errno != ETIMEDOUT) sim::fail("FUTEX_WAIT: no ETIMEDOUT");
    if (NowNs(CLOCK_MONOTONIC) - before != 3000000000LL) sim::fail("FUTEX_WAIT did not wait 3 s");

    // FUTEX_WAIT_BITSET: absolute on CLOCK_MONOTONIC.
    before = NowNs(CLOCK_MONOTONIC);
    const std::int64_t deadline = before + 2000000000LL;
    timespec absolute{static_cast<time_t>(deadline / 1000000000LL), static_cast<long>(deadline % 1000000000LL)};
    errno = 0;
    if (Futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, &absolute) != -1 || errno != ETIMEDOUT) {
      sim::fail("FUTEX_WAIT_BITSET: no ETIMEDOUT");
    }
    if (NowNs(CLOCK_MONOTONIC) != deadline) sim::fail("FUTEX_WAIT_BITSET did not wait until its deadline");

    // FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME: absolute on CLOCK_REALTIME.
    const std::int64_t real_deadline = NowNs(CLOCK_REALTIME) + 1500000000LL;
    timespec real_absolute{static_cast<time_t>(real_deadline / 1000000000LL),
                           static_cast<long>(real_deadline % 1000000000LL)};
    errno = 0;
    if (Futex(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &real_absolute) != -1 || errno != ETIMEDOUT) {
      sim::fail("FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME: no ETIMEDOUT");
    }
    if (NowNs(CLOCK_REALTIME) != real_deadline) sim::fail("realtime deadline missed");

    // A deadline already past times out at once.
    timespec past{0, 0};
    if (Futex(&word, FUTEX_WAIT_BITSET, 0, &past) != -1 || errno != ETIMEDOUT) sim::fail("past deadline waited");
  });
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(FutexRawSyscall, WakeCountsAndWakesAtMostN) {
  auto report = sim::explore(
      [] {
        std::uint32_t word = 0;
        int woken = 0;
        std::vector<std::thread> waiters;
        for (int i = 0; i < 3; ++i) {
          waiters.emplace_back([&] {
            if (Futex(&word, FUTEX_WAIT_PRIVATE, 0) != 0) sim::fail("wait failed");
            ++woken;
          });
        }
        // Every waiter is blocked once the clock has moved.
        std::this_thread::sleep_for(std::chrono::seconds(1));
        if (Futex(&word, FUTEX_WAKE_PRIVATE, 2) != 2) sim::fail("FUTEX_WAKE 2 did not report 2");
        std::this_thread::sleep_for(std::chrono::seconds(1));
        if (woken != 2) sim::fail("FUTEX_WAKE 2 woke " + std::to_string(woken));
        if (Futex(&word, FUTEX_WAKE_PRIVATE, INT_MAX) != 1) sim::fail("FUTEX_WAKE INT_MAX did not report 1");
        if (Futex(&word, FUTEX_WAKE_PRIVATE, INT_MAX) != 0) sim::fail("FUTEX_WAKE with no waiters did not report 0");
        for (auto& waiter : waiters) waiter.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(FutexRawSyscall, WakeBitsetWakesOnlyMatchingWaiters) {
  auto report = sim::explore(
      [] {
        std::uint32_t word = 0;
        bool woken[2] = {};
        std::thread first([&] {
          Futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, nullptr, 0b01);
          woken[0] = true;
        });
        std::thread second([&] {
          Futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, nullptr, 0b10);
          woken[1] = true;
        });
        std::this_thread::sleep_for(std::chrono::seconds(1));
        if (Futex(&word, FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, nullptr, 0b10) != 1) sim::fail("woke other than one");
        std::this_thread::sleep_for(std::chrono::seconds(1));
        if (woken[0] || !woken[1]) sim::fail("the bitset did not select the second waiter");
        if (Futex(&word, FUTEX_WAKE_PRIVATE, 1) != 1) sim::fail("FUTEX_WAKE missed the first waiter");
        first.join();
        second.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(FutexRawSyscall, RequeueIsUnsupported) {
  auto report = sim::explore([] {
    std::uint32_t word = 0, other = 0;
    syscall(SYS_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, INT_MAX, &other, 0);
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kUnsupported);
  EXPECT_NE(report->message.find("FUTEX_CMP_REQUEUE"), std::string::npos) << report->message;
}

TEST(FutexRawSyscall, OtherSyscallsForward) {
  auto report = sim::explore([] {
    if (syscall(SYS_getpid) != getpid()) sim::fail("SYS_getpid was not forwarded");
  });
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
