// A function-local static whose initialiser sleeps is constructed exactly
// once when two threads reach it: the second waits in __cxa_guard_acquire's
// futex until the first finishes. A static is initialised once per
// process, so every execution uses its own instantiation of a template
// (a fresh, never-initialised static and guard).
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <thread>
#include <utility>

#include "sim/sim.h"

namespace {

constexpr std::size_t kExecutions = 1000;
std::array<int, kExecutions> constructions{};
bool initialising = false;
int contended_executions = 0;

struct Slow {
  explicit Slow(std::size_t execution) : value(static_cast<int>(execution) + 1) {
    ++constructions[execution];
    initialising = true;
    // The other thread may arrive while this one sleeps.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    initialising = false;
  }
  int value;
};

template <std::size_t kExecution>
const Slow& Instance() {
  static const Slow instance(kExecution);
  return instance;
}

template <std::size_t... kIndices>
constexpr auto MakeInstanceTable(std::index_sequence<kIndices...>) {
  return std::array<const Slow& (*)(), sizeof...(kIndices)>{&Instance<kIndices>...};
}
constexpr auto kInstances = MakeInstanceTable(std::make_index_sequence<kExecutions>());

TEST(FutexFunctionLocalStatic, SlowInitialiserRunsOnceWhileOthersWait) {
  std::size_t execution = 0;
  auto report = sim::explore(
      [&] {
        const std::size_t mine = execution++;
        const Slow& (*instance)() = kInstances[mine];
        const Slow* seen[2] = {};
        auto use = [&](int index) {
          if (initialising) ++contended_executions;
          seen[index] = &instance();
          if (seen[index]->value != static_cast<int>(mine) + 1) sim::fail("saw an unconstructed static");
        };
        std::thread a(use, 0);
        std::thread b(use, 1);
        a.join();
        b.join();
        if (constructions[mine] != 1) {
          sim::fail("constructed " + std::to_string(constructions[mine]) + " times");
        }
        if (seen[0] != seen[1]) sim::fail("two threads saw two different statics");
      },
      {.seeds = kExecutions});
  ASSERT_FALSE(report.has_value()) << report->render();
  EXPECT_EQ(execution, kExecutions);
  // The interesting case happened: a thread arrived during the initialiser
  // and had to wait on the guard's futex.
  EXPECT_GT(contended_executions, 0);
}

}  // namespace
