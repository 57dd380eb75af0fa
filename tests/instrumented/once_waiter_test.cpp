// once_waiter_test.cpp: built with the pass, so every access below is a
// scheduling point. A thread waiting for another's pthread_once routine is
// enabled the moment the routine returns, and pthread_once makes no
// scheduling point after it: the routine thread's next access must still
// be a choice point where the waiter can run. That access is where a world
// that trusted a stale "only the running thread is enabled" would skip the
// scheduler (World::AccessSchedulingPoint).
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

// Globals: the pass instruments every access to them (the scheduling points
// this test is about).
pthread_once_t once = PTHREAD_ONCE_INIT;
int routine_started = 0;
int routine_work = 0;
int routine_thread_went_on = 0;  // what the routine's thread writes right after pthread_once

void Routine() {
  routine_started = 1;
  for (int i = 0; i < 4; ++i) ++routine_work;
}

// The waiter fails the execution when it finds that the routine's thread
// has not gone on yet; `check` false runs the same threads without failing.
void Scenario(bool check) {
  once = PTHREAD_ONCE_INIT;
  routine_started = routine_work = routine_thread_went_on = 0;
  std::thread routine_thread([] {
    pthread_once(&once, Routine);
    routine_thread_went_on = 1;
  });
  std::thread waiter([check] {
    while (routine_started == 0) sched_yield();
    pthread_once(&once, Routine);  // waits while the routine runs
    if (check && routine_thread_went_on == 0) sim::fail("the waiter ran before the routine's thread went on");
  });
  routine_thread.join();
  waiter.join();
}

TEST(OnceWaiter, RunsBetweenTheRoutineAndTheRoutineThreadsNextAccess) {
  sim::Options options;
  options.races = 0;  // the flags are plain ints read in a spin on purpose: a race, not what this tests
  options.strategy = "random";
  options.seeds = 2000;
  options.shrink = 0;
  const std::optional<sim::Report> report = sim::explore([] { Scenario(/*check=*/true); }, options);
  ASSERT_TRUE(report.has_value()) << "no seed of 2,000 let the waiter run right after the routine";
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
  EXPECT_NE(report->message.find("the waiter ran before the routine's thread went on"), std::string::npos)
      << report->message;
}

// The waiter often fails the test above while it is still yielding, not
// waiting, so that test passes even if the routine's end went unreported.
// This one makes a world check every skipped poll (what ctest turns on for
// all instrumented tests): in the seeds where the waiter waits, its wake-up
// is at the routine's end, which pthread_once must report.
TEST(OnceWaiter, NoAccessSkipsTheSchedulerWhileTheWaiterCanRun) {
  setenv("SIM_CHECK_ENABLED_CACHE", "1", /*overwrite=*/1);
  sim::Options options;
  options.races = 0;  // as above: the plain flags race on purpose
  options.strategy = "random";
  options.seeds = 500;
  const std::optional<sim::Report> report = sim::explore([] { Scenario(/*check=*/false); }, options);
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
