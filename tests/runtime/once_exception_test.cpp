// A std::call_once routine that throws leaves the flag not done and the
// exception reaches its caller; the next caller (one that was waiting, or a
// later one) runs the routine again.
#include <gtest/gtest.h>

#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

void Pause() {
  static std::mutex unrelated;
  std::lock_guard guard(unrelated);
}

}  // namespace

TEST(OnceException, ThrowingRoutineLeavesTheFlagNotDone) {
  auto report = sim::explore([] {
    std::once_flag flag;
    int attempts = 0;
    int successes = 0;
    int exceptions_seen = 0;
    auto caller = [&] {
      try {
        std::call_once(flag, [&] {
          Pause();  // let the other caller arrive and wait
          if (++attempts == 1) throw std::runtime_error("first attempt fails");
          ++successes;
        });
      } catch (const std::runtime_error&) {
        ++exceptions_seen;
      }
    };
    std::thread a(caller);
    std::thread b(caller);
    a.join();
    b.join();
    if (attempts != 2 || successes != 1 || exceptions_seen != 1) {
      sim::fail("attempts " + std::to_string(attempts) + ", successes " + std::to_string(successes) +
                ", exceptions " + std::to_string(exceptions_seen));
    }
    std::call_once(flag, [] { sim::fail("ran after success"); });
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
