// A once flag at the address of a finished one starts fresh: its routine
// runs, as it does natively, where glibc keeps "done" in the flag's own
// bytes. The world sees a heap flag's memory freed and a finished thread's
// stack released; a local flag in a loop body ends with no call the world
// could see, and is told apart by its bytes.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "reused_address.h"
#include "sim/sim.h"

namespace {

using reused_address::SameAddress;

// Fails the execution unless `runs` is `expected`.
void ExpectRuns(int runs, int expected) {
  if (runs != expected) {
    sim::fail("the routine ran " + std::to_string(runs) + " times for " + std::to_string(expected) + " flags");
  }
}


TEST(ReusedOnceFlag, HeapFlagAtAFreedFlagsAddressRunsItsRoutine) {
  // Of a size nothing else allocates, so that the allocator's free list
  // hands the freed block straight back.
  struct Padded {
    std::once_flag flag;
    char padding[700] = {};
  };
  auto report = sim::explore(
      [] {
        std::thread other([] {});
        int runs = 0;
        SameAddress same;
        for (int i = 0; i < 3; ++i) {
          auto padded = std::make_unique<Padded>();
          same.Expect(padded.get());
          std::call_once(padded->flag, [&] { ++runs; });
        }
        other.join();
        ExpectRuns(runs, 3);
      },
      {.seeds = 50});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ReusedOnceFlag, LocalFlagInALoopRunsItsRoutineEveryIteration) {
  auto report = sim::explore(
      [] {
        std::thread other([] {});
        int runs = 0;
        SameAddress same;
        for (int i = 0; i < 3; ++i) {
          std::once_flag flag;
          same.Expect(&flag);
          std::call_once(flag, [&] { ++runs; });
        }
        other.join();
        ExpectRuns(runs, 3);
      },
      {.seeds = 50});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ReusedOnceFlag, FlagOnTheStackOfAFinishedThreadRunsItsRoutineInTheNext) {
  auto report = sim::explore(
      [] {
        int runs = 0;
        SameAddress same;
        for (int i = 0; i < 3; ++i) {
          std::thread thread([&] {
            std::once_flag flag;
            same.Expect(&flag);
            std::call_once(flag, [&] { ++runs; });
          });
          thread.join();
        }
        ExpectRuns(runs, 3);
      },
      {.seeds = 50});
  EXPECT_FALSE(report.has_value()) << report->render();
}

// std::promise's shared state is set through std::call_once on a flag in
// the state, which the next promise's state, allocated at the same address,
// has fresh.
TEST(ReusedOnceFlag, PromisesInALoopEachDeliverTheirValue) {
  auto report = sim::explore(
      [] {
        int sum = 0;
        for (int i = 1; i <= 10; ++i) {
          std::promise<int> promise;
          std::future<int> future = promise.get_future();
          std::thread producer([&promise, i] { promise.set_value(i); });
          sum += future.get();
          producer.join();
        }
        if (sum != 55) sim::fail("the futures delivered " + std::to_string(sum) + ", not 55");
      },
      {.seeds = 50});
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
