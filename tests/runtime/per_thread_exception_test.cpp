// The C++ exception globals are per simulated thread: two threads inside
// catch blocks at once each see their own current exception and rethrow it.
#include <gtest/gtest.h>

#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/sim.h"

TEST(PerThreadException, CurrentExceptionIsPerThread) {
  auto report = sim::explore(
      [] {
        std::mutex m;
        auto use = [&](const std::string& mine) {
          try {
            throw std::runtime_error(mine);
          } catch (const std::runtime_error&) {
            std::this_thread::yield();
            { std::lock_guard lock(m); }  // interleave inside the catch block
            std::this_thread::yield();
            try {
              std::rethrow_exception(std::current_exception());
            } catch (const std::runtime_error& again) {
              if (again.what() != mine) sim::fail("current_exception is another thread's: " + std::string(again.what()));
            }
            try {
              throw;
            } catch (const std::runtime_error& again) {
              if (again.what() != mine) sim::fail("throw; rethrew another thread's exception");
            }
          }
          if (std::current_exception()) sim::fail("an exception is still current after the catch");
        };
        std::thread a(use, "from T1");
        std::thread b(use, "from T2");
        a.join();
        b.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
