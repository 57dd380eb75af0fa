// A pthread barrier separates phases: no thread starts phase p+1 before
// every thread finished phase p, and in each round exactly one waiter gets
// PTHREAD_BARRIER_SERIAL_THREAD. Without the barrier the phases mix.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pthread.h>

#include <array>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

constexpr int kThreads = 3;
constexpr int kPhases = 3;

template <bool kUseBarrier>
void Phases() {
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, nullptr, kThreads);
  std::array<int, kThreads> phase_done{};
  std::array<int, kPhases> serial_threads{};
  auto worker = [&](int self) {
    for (int phase = 0; phase < kPhases; ++phase) {
      for (int other = 0; other < kThreads; ++other) {
        if (phase_done[other] < phase) sim::fail("T" + std::to_string(other) + " is behind a phase");
      }
      phase_done[self] = phase + 1;
      if constexpr (kUseBarrier) {
        if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD) ++serial_threads[phase];
      } else {
        sched_yield();
      }
    }
  };
  std::thread a(worker, 0);
  std::thread b(worker, 1);
  std::thread c(worker, 2);
  a.join();
  b.join();
  c.join();
  if (pthread_barrier_destroy(&barrier) != 0) sim::fail("destroy failed");
  if constexpr (kUseBarrier) {
    for (int count : serial_threads) {
      if (count != 1) sim::fail(std::to_string(count) + " serial threads in a round");
    }
  }
}

}  // namespace

TEST(BarrierPhases, WithBarrierPasses) {
  auto report = sim::explore(Phases<true>, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(BarrierPhases, WithoutBarrierFails) {
  auto report = sim::explore(Phases<false>, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("is behind a phase"));
}
