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
// items_per_second is executions per second (one core: explore runs every
// simulated thread on the calling OS thread).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "scenarios.h"
#include "sim/sim.h"

namespace {

constexpr std::uint64_t kSeedsPerIteration = 1000;

using sim_bench::kRegistrySyncOperations;
using sim_bench::LockLoopScenario;
using sim_bench::LockLoopSyncOperations;
using sim_bench::RegistryScenario;

// explore over kSeedsPerIteration fresh seeds per iteration.
void ExploreExecutions(benchmark::State& state, void (*body)(), const char* strategy, int sync_operations) {
  sim::Options options;
  options.strategy = strategy;
  options.seeds = kSeedsPerIteration;
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
  RealThreadsExecutions(state, LockLoopScenario<kThreads, kLockRounds>,
                        LockLoopSyncOperations(kThreads, kLockRounds));
}

void BM_ExploreRegistry(benchmark::State& state, const char* strategy) {
  ExploreExecutions(state, RegistryScenario, strategy, kRegistrySyncOperations);
}
void BM_RealThreadsRegistry(benchmark::State& state) {
  RealThreadsExecutions(state, RegistryScenario, kRegistrySyncOperations);
}
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

BENCHMARK_MAIN();
