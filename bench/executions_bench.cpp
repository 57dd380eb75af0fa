// executions_bench.cpp: how many executions of a small scenario a world runs
// per second, next to the same scenario on real OS threads.
//
// The scenarios (bench/scenarios.h): the 2-thread registry (8 synchronisation
// operations) and lock loops of 2 threads (52 operations) and 4 threads (200
// operations). bench/seeds_bench runs the registry and the 4-thread loop
// whole-program, through sim-run.
//
//   BM_ExploreExecutionsRegistry/<strategy>    sim::explore over kSeedsPerIteration seeds
//   BM_RealThreadsExecutionsRegistry           the registry body with real std::threads
//   BM_ExploreExecutions/<threads>/<strategy>  the same for the lock loops
//   BM_RealThreadsExecutions/<threads>         the same body with real std::threads
//                                              (create + join per execution), in a loop
//
//   .../tls_<mode>                             the same under tls_switch=<mode>
//                                              (runtime/core/thread_local_switch.h):
//                                              what exact per-thread state costs
//   BM_ExploreExecutions2x10/...               2 threads x 10 locked increments, the
//                                              scenario docs/performance.md compares
//                                              with a checker that keeps no per-thread TLS
//
// items_per_second is executions per second (one core: explore runs every
// simulated thread on the calling OS thread). A mode the machine cannot run
// (wrfsbase without FSGSBASE) is skipped with a message.
#include <benchmark/benchmark.h>
#include <sys/auxv.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "scenarios.h"
#include "sim/sim.h"

namespace {

constexpr std::uint64_t kSeedsPerIteration = 1000;

using sim_bench::kRegistrySyncOperations;
using sim_bench::LockLoopScenario;
using sim_bench::LockLoopSyncOperations;
using sim_bench::RegistryScenario;

bool MachineHasWrfsbase() { return (getauxval(AT_HWCAP2) & 2) != 0; }

// explore over kSeedsPerIteration fresh seeds per iteration.
void ExploreExecutions(benchmark::State& state, void (*body)(), const char* strategy, int sync_operations,
                       const char* tls_switch = "auto") {
  if (std::string_view(tls_switch) == "wrfsbase" && !MachineHasWrfsbase()) {
    state.SkipWithError("tls_switch=wrfsbase: this machine has no FSGSBASE");
    return;
  }
  sim::Options options;
  options.races = 0;  // the world's own cost: the detector's has rows of its own (access_bench)
  options.strategy = strategy;
  options.seeds = kSeedsPerIteration;
  options.tls_switch = tls_switch;
  for (auto _ : state) {
    const std::optional<sim::Report> report = sim::explore(body, options);
    if (report) {
      state.SkipWithError(("execution did not pass: " + report->message).c_str());
      return;
    }
    options.first_seed += kSeedsPerIteration;  // fresh seeds every iteration
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSeedsPerIteration));
  state.counters["sync_ops_per_execution"] = sync_operations;
}

// The same body on real threads, one execution per iteration.
void RealThreadsExecutions(benchmark::State& state, void (*body)(), int sync_operations) {
  for (auto _ : state) body();
  state.SetItemsProcessed(state.iterations());
  state.counters["sync_ops_per_execution"] = sync_operations;
}

template <int kThreads, int kLockRounds>
void BM_ExploreExecutions(benchmark::State& state, const char* strategy) {
  static_assert(kThreads != 2 || LockLoopSyncOperations(kThreads, kLockRounds) == 52);
  static_assert(kThreads != 4 || LockLoopSyncOperations(kThreads, kLockRounds) == 200);
  ExploreExecutions(state, LockLoopScenario<kThreads, kLockRounds>, strategy,
                    LockLoopSyncOperations(kThreads, kLockRounds));
}

template <int kThreads, int kLockRounds>
void BM_RealThreadsExecutions(benchmark::State& state) {
  RealThreadsExecutions(state, LockLoopScenario<kThreads, kLockRounds>, LockLoopSyncOperations(kThreads, kLockRounds));
}

void BM_ExploreRegistry(benchmark::State& state, const char* strategy) {
  ExploreExecutions(state, RegistryScenario, strategy, kRegistrySyncOperations);
}
void BM_RealThreadsRegistry(benchmark::State& state) {
  RealThreadsExecutions(state, RegistryScenario, kRegistrySyncOperations);
}
void BM_ExploreRegistryIn(benchmark::State& state, const char* tls_switch) {
  ExploreExecutions(state, RegistryScenario, "random", kRegistrySyncOperations, tls_switch);
}
void BM_Explore2x52In(benchmark::State& state, const char* tls_switch) {
  ExploreExecutions(state, LockLoopScenario<2, 12>, "random", LockLoopSyncOperations(2, 12), tls_switch);
}
void BM_Explore2x10In(benchmark::State& state, const char* tls_switch) {
  ExploreExecutions(state, LockLoopScenario<2, 10>, "random", LockLoopSyncOperations(2, 10), tls_switch);
}
void BM_RealThreads2x10(benchmark::State& state) { BM_RealThreadsExecutions<2, 10>(state); }
void BM_Explore2x52(benchmark::State& state, const char* strategy) { BM_ExploreExecutions<2, 12>(state, strategy); }
void BM_Explore4x200(benchmark::State& state, const char* strategy) { BM_ExploreExecutions<4, 24>(state, strategy); }
void BM_RealThreads2x52(benchmark::State& state) { BM_RealThreadsExecutions<2, 12>(state); }
void BM_RealThreads4x200(benchmark::State& state) { BM_RealThreadsExecutions<4, 24>(state); }

}  // namespace

namespace sim_bench {
void ScenarioFailed(const char* what) {
  if (sim::active()) sim::fail(what);
  std::abort();
}
}  // namespace sim_bench

BENCHMARK_CAPTURE(BM_ExploreRegistry, random, "random")->Name("BM_ExploreExecutionsRegistry/random")->UseRealTime();
BENCHMARK_CAPTURE(BM_ExploreRegistry, pct3, "pct:3")->Name("BM_ExploreExecutionsRegistry/pct3")->UseRealTime();
BENCHMARK(BM_RealThreadsRegistry)->Name("BM_RealThreadsExecutionsRegistry")->UseRealTime();
// The 2-thread lock-loop rows keep their names from before the other scenarios.
BENCHMARK_CAPTURE(BM_Explore2x52, random, "random")->Name("BM_ExploreExecutions/random")->UseRealTime();
BENCHMARK_CAPTURE(BM_Explore2x52, pct3, "pct:3")->Name("BM_ExploreExecutions/pct3")->UseRealTime();
BENCHMARK_CAPTURE(BM_Explore2x52, pos, "pos")->Name("BM_ExploreExecutions/pos")->UseRealTime();
BENCHMARK_CAPTURE(BM_Explore2x52, portfolio, "portfolio")->Name("BM_ExploreExecutions/portfolio")->UseRealTime();
BENCHMARK(BM_RealThreads2x52)->Name("BM_RealThreadsExecutions")->UseRealTime();
BENCHMARK_CAPTURE(BM_Explore4x200, random, "random")->Name("BM_ExploreExecutions4x200/random")->UseRealTime();
BENCHMARK_CAPTURE(BM_Explore4x200, pct3, "pct:3")->Name("BM_ExploreExecutions4x200/pct3")->UseRealTime();
BENCHMARK(BM_RealThreads4x200)->Name("BM_RealThreadsExecutions4x200")->UseRealTime();
#define SIM_BENCH_PER_TLS_SWITCH(function, name)                                                       \
  BENCHMARK_CAPTURE(function, lazy, "lazy")->Name(name "/random/tls_lazy")->UseRealTime();             \
  BENCHMARK_CAPTURE(function, wrfsbase, "wrfsbase")->Name(name "/random/tls_wrfsbase")->UseRealTime(); \
  BENCHMARK_CAPTURE(function, syscall, "syscall")->Name(name "/random/tls_syscall")->UseRealTime()
SIM_BENCH_PER_TLS_SWITCH(BM_ExploreRegistryIn, "BM_ExploreExecutionsRegistry");
SIM_BENCH_PER_TLS_SWITCH(BM_Explore2x52In, "BM_ExploreExecutions");
SIM_BENCH_PER_TLS_SWITCH(BM_Explore2x10In, "BM_ExploreExecutions2x10");
BENCHMARK(BM_RealThreads2x10)->Name("BM_RealThreadsExecutions2x10")->UseRealTime();

BENCHMARK_MAIN();
