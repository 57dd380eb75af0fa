// A bounded queue with two condition variables (not full, not empty), two
// producers and two consumers: every item arrives once and the queue never
// exceeds its capacity, under every explored interleaving.
#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "sim/sim.h"

TEST(CondBoundedQueue, ProducersAndConsumersPass) {
  auto report = sim::explore([] {
    constexpr std::size_t kCapacity = 2;
    constexpr int kItemsPerThread = 3;
    std::mutex m;
    std::condition_variable not_full;
    std::condition_variable not_empty;
    std::deque<int> queue;
    int consumed_sum = 0;
    auto produce = [&](int first) {
      for (int item = first; item < first + kItemsPerThread; ++item) {
        std::unique_lock lock(m);
        not_full.wait(lock, [&] { return queue.size() < kCapacity; });
        queue.push_back(item);
        if (queue.size() > kCapacity) sim::fail("queue over capacity");
        not_empty.notify_one();
      }
    };
    auto consume = [&] {
      for (int i = 0; i < kItemsPerThread; ++i) {
        std::unique_lock lock(m);
        not_empty.wait(lock, [&] { return !queue.empty(); });
        consumed_sum += queue.front();
        queue.pop_front();
        not_full.notify_one();
      }
    };
    std::thread p1(produce, 0);
    std::thread p2(produce, 100);
    std::thread c1(consume);
    std::thread c2(consume);
    p1.join();
    p2.join();
    c1.join();
    c2.join();
    if (consumed_sum != 0 + 1 + 2 + 100 + 101 + 102) sim::fail("items lost: sum " + std::to_string(consumed_sum));
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
