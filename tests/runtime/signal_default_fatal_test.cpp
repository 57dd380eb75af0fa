// A signal whose default action ends the process, sent to a simulated
// thread, ends the execution as a crash that names sender, signal and target.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <thread>

#include "sim/sim.h"

TEST(SignalDefaultFatal, PthreadKillWithDefaultActionIsACrash) {
  signal(SIGUSR1, SIG_DFL);
  auto report = sim::explore([] {
    std::thread target([] { std::this_thread::sleep_for(std::chrono::seconds(1)); });
    pthread_kill(target.native_handle(), SIGUSR1);
    target.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_NE(report->message.find("T0 sent SIGUSR1 to T1, whose default action ends the process"), std::string::npos)
      << report->message;
}

TEST(SignalDefaultFatal, RaiseWithDefaultActionIsACrash) {
  signal(SIGTERM, SIG_DFL);
  auto report = sim::explore([] {
    std::thread raiser([] { raise(SIGTERM); });
    raiser.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kCrash);
  EXPECT_NE(report->message.find("T1 raised SIGTERM, whose default action ends the process"), std::string::npos)
      << report->message;
}

TEST(SignalDefaultFatal, DefaultIgnoredSignalIsHarmless) {
  signal(SIGCHLD, SIG_DFL);
  auto report = sim::explore([] {
    std::thread target([] { std::this_thread::sleep_for(std::chrono::seconds(1)); });  // alive when signalled
    if (pthread_kill(target.native_handle(), SIGCHLD) != 0) sim::fail("pthread_kill failed");
    target.join();
  });
  EXPECT_FALSE(report.has_value()) << report->render();
}
