// `if` instead of `while` around a wait: with two consumers, a third thread
// can take the item between the signal and the woken consumer's re-lock, so
// the consumer wakes to an empty queue. No spurious wakeups are needed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

template <bool kRecheck>
void TwoConsumersOneProducer() {
  std::mutex m;
  std::condition_variable cv;
  std::deque<int> queue;
  auto consume = [&] {
    std::unique_lock lock(m);
    if constexpr (kRecheck) {
      while (queue.empty()) cv.wait(lock);
    } else {
      if (queue.empty()) cv.wait(lock);
    }
    if (queue.empty()) sim::fail("consumer woke to an empty queue");
    queue.pop_front();
  };
  std::thread a(consume);
  std::thread b(consume);
  for (int item = 0; item < 2; ++item) {
    std::lock_guard guard(m);
    queue.push_back(item);
    cv.notify_one();
  }
  a.join();
  b.join();
}

}  // namespace

TEST(CondIfInsteadOfWhile, IfFails) {
  auto report = sim::explore(TwoConsumersOneProducer<false>, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("consumer woke to an empty queue")) << report->render();
}

TEST(CondIfInsteadOfWhile, WhilePasses) {
  auto report = sim::explore(TwoConsumersOneProducer<true>, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
