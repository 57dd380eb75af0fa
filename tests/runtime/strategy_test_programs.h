// strategy_test_programs.h: small programs with known bugs (and correct
// ones) that the strategy tests run, one place for all of them.
// Built without the pass: only intercepted calls are scheduling points.
#ifndef SIM_TESTS_RUNTIME_STRATEGY_TEST_PROGRAMS_H_
#define SIM_TESTS_RUNTIME_STRATEGY_TEST_PROGRAMS_H_

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace sim_test_programs {

// One preemption: both read the counter in one critical section and write
// it back in another.
inline void SplitLockedIncrement() {
  std::mutex m;
  int counter = 0;
  auto increment = [&] {
    int seen;
    {
      std::lock_guard g(m);
      seen = counter;
    }
    std::lock_guard g(m);
    counter = seen + 1;
  };
  std::thread a(increment), b(increment);
  a.join();
  b.join();
  if (counter != 2) sim::fail("lost update");
}

// Two preemptions among three threads: only A1 B1 A2 (with C anywhere) fails.
inline void InterleavedTwiceAmongThree() {
  std::mutex m;
  std::vector<std::string> log;
  auto step = [&](const char* name) {
    std::lock_guard g(m);
    log.push_back(name);
  };
  std::thread a([&] {
    step("A1");
    step("A2");
  });
  std::thread b([&] { step("B1"); });
  std::thread c([&] { step("C1"); });
  a.join();
  b.join();
  c.join();
  std::vector<std::string> without_c;
  for (const std::string& name : log) {
    if (name != "C1") without_c.push_back(name);
  }
  if (without_c == std::vector<std::string>{"A1", "B1", "A2"}) sim::fail("B1 ran between A1 and A2");
}

inline void LockedIncrementByThree() {
  std::mutex m;
  int counter = 0;
  auto increment = [&] {
    for (int i = 0; i < 3; ++i) {
      std::lock_guard g(m);
      ++counter;
    }
  };
  std::thread a(increment), b(increment), c(increment);
  a.join();
  b.join();
  c.join();
  if (counter != 9) sim::fail("lost update");
}

// Correct: a waiter polls a flag under a mutex, never yielding, until
// another thread sets it. A strategy that lets the running thread go on
// forever starves the setter (dfs's default before the time slice, pct's
// priorities before a time slice's end dropped the poller).
inline void PollUntilSet() {
  std::mutex m;
  bool set = false;
  std::thread waiter([&] {
    for (;;) {
      std::lock_guard lock(m);
      if (set) break;
    }
  });
  std::thread setter([&] {
    std::lock_guard lock(m);
    set = true;
  });
  waiter.join();
  setter.join();
}

}  // namespace sim_test_programs

#endif  // SIM_TESTS_RUNTIME_STRATEGY_TEST_PROGRAMS_H_
