// executions_bench.cpp: how many executions of a small scenario a world runs
// per second, next to the same scenario on real OS threads.
//
// The scenario: the body starts two threads; each locks and unlocks one
// std::mutex kLockRounds times around an increment; the body joins both and
// checks the count. 2 creates + 2 joins + 2 * 12 * (lock + unlock) = 52
// synchronisation operations, each a scheduling point in a world.
//
//   BM_ExploreExecutions/<strategy>  sim::explore over kSeedsPerIteration seeds
//   BM_RealThreadsExecutions         the same body with real std::threads
//                                    (create + join per execution), in a loop
//
// items_per_second is executions per second (one core: explore runs every
// simulated thread on the calling OS thread).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

constexpr int kLockRounds = 12;
constexpr std::uint64_t kSeedsPerIteration = 1000;

void Scenario() {
  std::mutex mutex;
  int count = 0;
  auto work = [&] {
    for (int i = 0; i < kLockRounds; ++i) {
      std::lock_guard lock(mutex);
      ++count;
    }
  };
  std::thread a(work);
  std::thread b(work);
  a.join();
  b.join();
  if (count != 2 * kLockRounds) {
    if (sim::active()) sim::fail("lost an increment");
    std::abort();
  }
}

void BM_ExploreExecutions(benchmark::State& state, const char* strategy) {
  sim::Options options;
  options.strategy = strategy;
  options.seeds = kSeedsPerIteration;
  for (auto _ : state) {
    const std::optional<sim::Report> report = sim::explore(Scenario, options);
    if (report) {
      state.SkipWithError(("execution did not pass: " + report->message).c_str());
      return;
    }
    options.first_seed += kSeedsPerIteration;  // fresh seeds every iteration
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSeedsPerIteration));
  state.counters["sync_ops_per_execution"] = 4 + 4 * kLockRounds;
}

void BM_RealThreadsExecutions(benchmark::State& state) {
  for (auto _ : state) Scenario();
  state.SetItemsProcessed(state.iterations());
  state.counters["sync_ops_per_execution"] = 4 + 4 * kLockRounds;
}

}  // namespace

BENCHMARK_CAPTURE(BM_ExploreExecutions, random, "random")->UseRealTime();
BENCHMARK_CAPTURE(BM_ExploreExecutions, pct3, "pct:3")->UseRealTime();
BENCHMARK_CAPTURE(BM_ExploreExecutions, pos, "pos")->UseRealTime();
BENCHMARK_CAPTURE(BM_ExploreExecutions, portfolio, "portfolio")->UseRealTime();
BENCHMARK(BM_RealThreadsExecutions)->UseRealTime();

BENCHMARK_MAIN();
