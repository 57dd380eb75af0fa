// std::call_once runs its routine exactly once however three threads race,
// and every caller returns only after it finished. A check-then-act "once"
// built from a flag and a split critical section runs it twice.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

// A scheduling point inside the routine, so other callers arrive while it
// runs (the runtime tests are not instrumented).
void Pause() {
  static std::mutex unrelated;
  std::lock_guard guard(unrelated);
}

}  // namespace

TEST(OnceCounter, CallOnceRunsOnce) {
  auto report = sim::explore([] {
    std::once_flag flag;
    int runs = 0;
    int value = 0;
    auto caller = [&] {
      std::call_once(flag, [&] {
        ++runs;
        Pause();
        value = 42;
      });
      if (value != 42) sim::fail("call_once returned before the routine finished");
    };
    std::thread a(caller);
    std::thread b(caller);
    std::thread c(caller);
    a.join();
    b.join();
    c.join();
    if (runs != 1) sim::fail("routine ran " + std::to_string(runs) + " times");
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(OnceCounter, CheckThenActRunsTwice) {
  auto report = sim::explore([] {
    std::mutex m;
    bool done = false;
    int runs = 0;
    auto caller = [&] {
      bool run;
      {
        std::lock_guard guard(m);
        run = !done;
      }
      if (run) {  // bug: another caller can pass the check before done is set
        std::lock_guard guard(m);
        ++runs;
        done = true;
      }
    };
    std::thread a(caller);
    std::thread b(caller);
    std::thread c(caller);
    a.join();
    b.join();
    c.join();
    if (runs != 1) sim::fail("routine ran " + std::to_string(runs) + " times");
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("times"));
}
