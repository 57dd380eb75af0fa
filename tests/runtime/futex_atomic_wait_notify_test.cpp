// std::atomic<int>::wait / notify_one hand a turn back and forth between two
// threads (libstdc++ waits with FUTEX_WAIT_PRIVATE on the atomic itself).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "sim/sim.h"

TEST(FutexAtomicWaitNotify, PingPongHandoff) {
  auto report = sim::explore(
      [] {
        constexpr int kRounds = 5;
        std::atomic<int> turn{0};
        std::vector<int> order;
        std::thread odd([&] {
          for (int round = 0; round < kRounds; ++round) {
            const int mine = 2 * round + 1;
            for (int seen = turn.load(); seen != mine; seen = turn.load()) {
              turn.wait(seen);
            }
            order.push_back(mine);
            turn.store(mine + 1);
            turn.notify_one();
          }
        });
        for (int round = 0; round < kRounds; ++round) {
          const int mine = 2 * round;
          for (int seen = turn.load(); seen != mine; seen = turn.load()) turn.wait(seen);
          order.push_back(mine);
          turn.store(mine + 1);
          turn.notify_one();
        }
        odd.join();
        for (int i = 0; i < 2 * kRounds; ++i) {
          if (order.size() != 2 * kRounds || order[i] != i) sim::fail("turns out of order");
        }
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(FutexAtomicWaitNotify, WaiterSeesTheValueStoredBeforeNotify) {
  auto report = sim::explore(
      [] {
        std::atomic<int> ready{0};
        int data = 0;
        std::thread consumer([&] {
          ready.wait(0);
          if (data != 42) sim::fail("woken before the data was written");
        });
        data = 42;
        ready.store(1);
        ready.notify_one();
        consumer.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
