// A once flag that outlives explore() (a global) is done only within the
// execution that ran it: every seed runs the routine again, because the
// world keeps the state in its model and never writes the user's flag. A
// flag completed before explore() began stays done in every execution.
#include <gtest/gtest.h>

#include <pthread.h>

#include <mutex>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {
std::once_flag global_flag;
pthread_once_t completed_before = PTHREAD_ONCE_INIT;
int runs_before = 0;
}  // namespace

TEST(OnceStatePerExecution, EverySeedRunsTheRoutine) {
  int executions = 0;
  int runs = 0;
  auto report = sim::explore([&] {
    ++executions;
    std::thread a([&] { std::call_once(global_flag, [&] { ++runs; }); });
    std::call_once(global_flag, [&] { ++runs; });
    a.join();
  }, {.seeds = 100});
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_EQ(runs, executions);
}

TEST(OnceStatePerExecution, DoneBeforeTheWorldStaysDone) {
  pthread_once(&completed_before, [] { ++runs_before; });
  auto report = sim::explore([] {
    pthread_once(&completed_before, [] { ++runs_before; });
  }, {.seeds = 10});
  EXPECT_FALSE(report.has_value()) << report->render();
  EXPECT_EQ(runs_before, 1);
}
