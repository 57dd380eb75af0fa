// livelock_test.cpp: built with the pass, so every access below is a
// scheduling point. Long honest work is not a livelock, however many points
// it takes, and a real livelock ends quickly in a verdict naming the
// spinning threads (World::CheckSteps, progress_watch.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "sim/sim.h"

// Globals with external linkage and heap memory: the pass instruments
// every access to them, and the compiler cannot prove that nothing ever sets
// the flag (with internal linkage it did, and removed the spin loop).
std::vector<int> livelock_test_numbers;
std::atomic<bool> livelock_test_flag{false};
std::atomic<bool> livelock_test_wants[2];

namespace {

using ::testing::HasSubstr;
auto& numbers = livelock_test_numbers;
auto& flag = livelock_test_flag;
auto& wants = livelock_test_wants;

TEST(Livelock, SortingBeforeTheFirstThreadIsNotAStepLimit) {
  // About 4 million accesses by T0 alone, four times the default livelock_steps.
  auto report = sim::explore(
      [] {
        numbers.assign(100000, 0);
        for (int i = 0; i < static_cast<int>(numbers.size()); ++i) numbers[i] = (i * 7919) % 100003;
        std::sort(numbers.begin(), numbers.end());
        std::thread t([] { numbers[0] = -1; });
        t.join();
        if (numbers[0] != -1 || !std::is_sorted(numbers.begin() + 1, numbers.end())) sim::fail("not sorted");
      },
      {.seeds = 2, .max_steps = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(Livelock, TwoThreadsOfHonestWorkPassWithTheDefaults) {
  // Each thread makes about 1.2 million accesses to memory it keeps changing.
  auto report = sim::explore(
      [] {
        std::vector<long> left(1000), right(1000);
        auto work = [](std::vector<long>& v) {
          for (int round = 0; round < 600; ++round) {
            for (long& x : v) x += round;
          }
        };
        std::thread first(work, std::ref(left)), second(work, std::ref(right));
        first.join();
        second.join();
        if (left[0] != right[0]) sim::fail("the two sums differ");
      },
      {.seeds = 1, .strategy = "random"});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(Livelock, SpinningOnAFlagNoFinishedThreadWillSetIsALivelock) {
  auto report = sim::explore(
      [] {
        flag = false;
        std::thread forgetful([] {});
        forgetful.join();
        std::thread waiter([] {
          while (!flag.load(std::memory_order_acquire)) {
          }
        });
        waiter.join();
      },
      {.seeds = 1, .livelock_steps = 10000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kLivelock);
  EXPECT_THAT(report->message, HasSubstr("T2 went round the same 1 word of memory"));
  EXPECT_THAT(report->render(), HasSubstr("T2 running, last atomic load at livelock_test.cpp:"));
  // Found within a few windows of the look, not after max_steps.
  EXPECT_LT(report->step, 10000u + 16 * 1024u);
}

TEST(Livelock, TwoThreadsYieldingToEachOtherForeverIsALivelock) {
  // Each raises its hand, then waits for the other's to go down, yielding.
  auto report = sim::explore(
      [] {
        wants[0] = wants[1] = false;
        auto polite = [](int me) {
          wants[me] = true;
          while (wants[1 - me]) std::this_thread::yield();
          wants[me] = false;
        };
        std::thread first(polite, 0), second(polite, 1);
        first.join();
        second.join();
      },
      {.seeds = 200, .strategy = "random", .livelock_steps = 10000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kLivelock);
  EXPECT_THAT(report->message, HasSubstr("T1, T2 went round the same"));
}

TEST(Livelock, TheWatchCanBeTurnedOffAndTheStepLimitStillEndsIt) {
  auto report = sim::explore(
      [] {
        flag = false;
        std::thread waiter([] {
          while (!flag.load(std::memory_order_acquire)) {
          }
        });
        waiter.join();
      },
      {.seeds = 1, .max_steps = 50000, .livelock_steps = 0});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kStepLimit);
  EXPECT_THAT(report->message, HasSubstr("50000 scheduling points with two or more threads alive"));
}

}  // namespace
