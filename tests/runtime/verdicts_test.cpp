// Each way an execution can end badly has its own verdict and a message that
// names the thread and the cause, and the next explore() works normally.
#undef NDEBUG  // assert() must be live in this file whatever the build type
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cassert>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

void ExpectNextExplorePasses() {
  auto next = sim::explore(
      [] {
        std::mutex m;
        std::thread t([&] { std::lock_guard g(m); });
        t.join();
      },
      {.seeds = 20});
  EXPECT_FALSE(next.has_value()) << next->render();
}

TEST(Verdicts, UncaughtExceptionInAThreadNamesTypeAndMessage) {
  auto report = sim::explore([] {
    std::thread t([] { throw std::runtime_error("disk on fire"); });
    t.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kUncaughtException);
  EXPECT_THAT(report->message, HasSubstr("T1"));
  EXPECT_THAT(report->message, HasSubstr("std::runtime_error: disk on fire"));
  ExpectNextExplorePasses();
}

TEST(Verdicts, UncaughtExceptionInTheBody) {
  auto report = sim::explore([] { throw std::logic_error("bad body"); });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kUncaughtException);
  EXPECT_THAT(report->message, HasSubstr("uncaught exception in T0: std::logic_error: bad body"));
}

TEST(Verdicts, SimFailNamesTheThread) {
  auto report = sim::explore([] {
    std::thread t([] { sim::fail("invariant broken"); });
    t.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
  EXPECT_EQ(report->message, "invariant broken (in T1)");
  ExpectNextExplorePasses();
}

TEST(Verdicts, SpinningForeverHitsTheStepLimit) {
  auto report = sim::explore(
      [] {
        std::mutex m;
        bool ready = false;  // never set: the spinner waits forever
        std::thread spinner([&] {
          for (;;) {
            std::lock_guard g(m);
            if (ready) break;
          }
        });
        spinner.join();
      },
      {.seeds = 1, .max_steps = 5000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kStepLimit);
  EXPECT_THAT(report->message, HasSubstr("5000 scheduling points"));
  EXPECT_THAT(report->message, HasSubstr("spin"));
  EXPECT_THAT(report->render(), HasSubstr("T1 running, last unlock at verdicts_test.cpp:"));
  ExpectNextExplorePasses();
}

TEST(Verdicts, NullDereferenceIsACrash) {
  auto report = sim::explore([] {
    std::thread t([] {
      volatile int* nowhere = nullptr;
      *nowhere = 1;
    });
    t.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_THAT(report->message, HasSubstr("T1 received SIGSEGV"));
}

int Recurse(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  return Recurse(depth + 1) + frame[0];
}

TEST(Verdicts, StackOverflowHitsTheGuardPage) {
  auto report = sim::explore([] {
    std::thread t([] { Recurse(0); });
    t.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_THAT(report->message, HasSubstr("stack overflow into the guard page"));
}

TEST(Verdicts, FailedAssertIsACrashNamingTheExpression) {
  auto report = sim::explore([] {
    int balance = -1;
    assert(balance >= 0);
    (void)balance;
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_THAT(report->message, HasSubstr("assertion failed in T0: balance >= 0"));
  ExpectNextExplorePasses();
}

TEST(Verdicts, AbortIsACrash) {
  auto report = sim::explore([] { std::abort(); });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_THAT(report->message, HasSubstr("abort() called in T0"));
}

TEST(Verdicts, DestroyingAJoinableThreadIsReported) {
  auto report = sim::explore([] { std::thread t([] {}); });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_THAT(report->message, HasSubstr("std::terminate called in T0"));
}

TEST(Verdicts, PthreadCancelIsUnsupported) {
  auto report = sim::explore([] {
    std::thread t([] {});
    pthread_cancel(t.native_handle());
    t.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kUnsupported);
  EXPECT_THAT(report->message, HasSubstr("pthread_cancel called in T0"));
  ExpectNextExplorePasses();
}

TEST(Verdicts, ForkIsUnsupported) {
  auto report = sim::explore([] { (void)fork(); });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kUnsupported);
  EXPECT_THAT(report->message, HasSubstr("fork called in T0"));
}

}  // namespace
