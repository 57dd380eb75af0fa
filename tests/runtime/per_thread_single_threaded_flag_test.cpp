// __libc_single_threaded is false inside a world with two threads, so
// libstdc++ uses atomic reference counts (shared_ptr, std::string COW).
#include <gtest/gtest.h>

#include <thread>

#include "sim/sim.h"

extern "C" char __libc_single_threaded;

TEST(PerThreadSingleThreadedFlag, FalseWithTwoThreads) {
  auto report = sim::explore(
      [] {
        bool seen_in_thread = true;
        std::thread other([&] { seen_in_thread = __libc_single_threaded != 0; });
        if (__libc_single_threaded != 0) sim::fail("__libc_single_threaded is true in T0 with two threads");
        other.join();
        if (seen_in_thread) sim::fail("__libc_single_threaded is true in T1");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
