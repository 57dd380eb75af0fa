// std::counting_semaphore<2> lets at most two of four threads in at once,
// and every thread gets in (libstdc++ waits on the counter's futex).
#include <gtest/gtest.h>

#include <semaphore>
#include <thread>
#include <vector>

#include "sim/sim.h"

TEST(FutexCountingSemaphore, AtMostTwoInsideAndAllGetIn) {
  int executions_with_two_inside = 0;
  auto report = sim::explore(
      [&] {
        std::counting_semaphore<2> slots(2);
        int inside = 0;
        int most_inside = 0;
        int finished = 0;
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i) {
          threads.emplace_back([&] {
            slots.acquire();
            ++inside;
            if (inside > 2) sim::fail("three threads inside a two-slot semaphore");
            most_inside = std::max(most_inside, inside);
            std::this_thread::yield();  // let the others try while this one is inside
            --inside;
            ++finished;
            slots.release();
          });
        }
        for (auto& thread : threads) thread.join();
        if (finished != 4) sim::fail("a thread never got in");
        executions_with_two_inside += most_inside == 2;
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_GT(executions_with_two_inside, 0);
}
