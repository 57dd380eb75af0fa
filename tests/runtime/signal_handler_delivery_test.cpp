// pthread_kill with a handler installed runs the handler on the target
// thread (pthread_self() inside the handler is the target) when it next
// runs; raise() runs it on the spot; SIG_IGN drops the signal.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <thread>

#include "sim/sim.h"

namespace {

pthread_t handled_on;
int handled_count = 0;

void OnUsr1(int) {
  handled_on = pthread_self();
  ++handled_count;
}

void OnUsr2Info(int signal_number, siginfo_t* info, void*) {
  if (info == nullptr || info->si_signo != signal_number) sim::fail("bad siginfo");
  handled_on = pthread_self();
  ++handled_count;
}

struct HandlerScope {
  HandlerScope(int signal_number, void (*handler)(int)) : signal_number_(signal_number) {
    struct sigaction action{};
    action.sa_handler = handler;
    sigaction(signal_number, &action, &previous_);
  }
  HandlerScope(int signal_number, void (*handler)(int, siginfo_t*, void*)) : signal_number_(signal_number) {
    struct sigaction action{};
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO;
    sigaction(signal_number, &action, &previous_);
  }
  ~HandlerScope() { sigaction(signal_number_, &previous_, nullptr); }
  int signal_number_;
  struct sigaction previous_{};
};

TEST(SignalHandlerDelivery, PthreadKillRunsTheHandlerOnTheTarget) {
  HandlerScope usr1(SIGUSR1, OnUsr1);
  auto report = sim::explore(
      [] {
        handled_count = 0;
        handled_on = pthread_t{};
        std::atomic<bool> stop{false};
        pthread_t target_handle{};
        std::thread target([&] {
          target_handle = pthread_self();
          while (!stop) std::this_thread::yield();  // the handler runs at one of these
        });
        const pthread_t handle = target.native_handle();
        if (pthread_kill(handle, SIGUSR1) != 0) sim::fail("pthread_kill failed");
        while (handled_count == 0) std::this_thread::yield();
        stop = true;
        target.join();
        if (handled_count != 1) sim::fail("handler ran " + std::to_string(handled_count) + " times");
        if (!pthread_equal(handled_on, handle) || !pthread_equal(handled_on, target_handle)) {
          sim::fail("the handler ran on a thread other than the target");
        }
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SignalHandlerDelivery, SiginfoHandlerAndRaiseRunAtOnce) {
  HandlerScope usr2(SIGUSR2, OnUsr2Info);
  auto report = sim::explore(
      [] {
        handled_count = 0;
        std::thread self_signaller([] {
          if (raise(SIGUSR2) != 0) sim::fail("raise failed");
          if (handled_count != 1 || !pthread_equal(handled_on, pthread_self())) sim::fail("raise: not handled at once");
          if (pthread_kill(pthread_self(), SIGUSR2) != 0) sim::fail("pthread_kill(self) failed");
          if (handled_count != 2) sim::fail("pthread_kill(self): not handled at once");
        });
        self_signaller.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SignalHandlerDelivery, IgnoredSignalIsDropped) {
  HandlerScope ignored(SIGUSR1, SIG_IGN);
  auto report = sim::explore(
      [] {
        std::thread target([] { std::this_thread::sleep_for(std::chrono::seconds(1)); });  // alive when signalled
        if (pthread_kill(target.native_handle(), SIGUSR1) != 0) sim::fail("pthread_kill failed");
        target.join();
        if (raise(SIGUSR1) != 0) sim::fail("raise failed");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
