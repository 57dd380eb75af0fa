// std::promise / std::future across threads (libstdc++'s
// __atomic_futex_unsigned: FUTEX_WAIT, and FUTEX_WAIT_BITSET with an
// absolute CLOCK_MONOTONIC deadline for wait_for).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include "sim/sim.h"

using namespace std::chrono_literals;

TEST(FutexPromiseFuture, ValueAndExceptionCrossThreads) {
  auto report = sim::explore(
      [] {
        std::promise<int> value;
        std::promise<void> failure;
        std::future<int> value_future = value.get_future();
        std::future<void> failure_future = failure.get_future();
        std::thread producer([&] {
          value.set_value(42);
          failure.set_exception(std::make_exception_ptr(std::runtime_error("boom")));
        });
        if (value_future.get() != 42) sim::fail("wrong value");
        try {
          failure_future.get();
          sim::fail("no exception");
        } catch (const std::runtime_error& error) {
          if (std::string(error.what()) != "boom") sim::fail("wrong exception");
        }
        producer.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(FutexPromiseFuture, WaitForTimesOutInVirtualTime) {
  auto report = sim::explore(
      [] {
        std::promise<int> promise;
        std::future<int> future = promise.get_future();
        std::thread producer([&] {
          std::this_thread::sleep_for(2s);
          promise.set_value(7);
        });
        // The producer sleeps 2 s: a 1 s wait must time out, in every
        // interleaving, and a later get() still sees the value.
        if (future.wait_for(1s) != std::future_status::timeout) sim::fail("wait_for(1s) did not time out");
        if (future.get() != 7) sim::fail("wrong value");
        producer.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
