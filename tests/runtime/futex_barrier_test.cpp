// std::barrier: no thread starts phase p+1 before every thread finished
// phase p, and the completion function runs once per phase.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "sim/sim.h"

TEST(FutexBarrier, PhasesDoNotOverlap) {
  auto report = sim::explore(
      [] {
        constexpr int kThreads = 3;
        constexpr int kPhases = 3;
        int completions = 0;
        int finished_phase[kThreads] = {};
        auto on_completion = [&]() noexcept { ++completions; };
        std::barrier sync(kThreads, on_completion);
        std::vector<std::thread> threads;
        for (int i = 0; i < kThreads; ++i) {
          threads.emplace_back([&, i] {
            for (int phase = 1; phase <= kPhases; ++phase) {
              finished_phase[i] = phase;
              sync.arrive_and_wait();
              for (int other = 0; other < kThreads; ++other) {
                if (finished_phase[other] < phase) sim::fail("passed the barrier before another thread arrived");
              }
              if (completions < phase) sim::fail("passed the barrier before its completion ran");
            }
          });
        }
        for (auto& thread : threads) thread.join();
        if (completions != kPhases) sim::fail("completion ran " + std::to_string(completions) + " times");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
