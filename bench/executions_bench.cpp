// executions_bench.cpp: how many executions of a small scenario a world runs
// per second, next to the same scenario on real OS threads.
//
// The scenarios:
//   registry  issue 6's "2-thread registry scenario": two threads ask a
//             registry for the same client; the first creates it under the
//             registry's mutex, the second finds it; the body checks both
//             got the same one. 2 creates + 2 joins + 2 locks + 2 unlocks =
//             8 synchronisation operations.
//   lock loops  the body starts T threads; each locks and unlocks one
//             std::mutex R times around an increment; the body joins them
//             all and checks the count. T creates + T joins + 2 * T * R
//             (lock + unlock) operations:
//               2 threads, R = 12:  52 operations (the small scenario before
//                                   the registry one was added: heavier)
//               4 threads, R = 24: 200 operations (issue 6's "4-thread,
//                                   200-operation")
// Each operation is a scheduling point in a world.
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
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

constexpr std::uint64_t kSeedsPerIteration = 1000;

constexpr int SyncOperations(int threads, int lock_rounds) { return 2 * threads + 2 * threads * lock_rounds; }

class Registry {
 public:
  const int* GetClient() {
    std::lock_guard lock(mutex_);
    if (client_ == nullptr) client_ = std::make_unique<int>(42);
    return client_.get();
  }

 private:
  std::mutex mutex_;
  std::unique_ptr<int> client_;
};

constexpr int kRegistrySyncOperations = 8;

void RegistryScenario() {
  Registry registry;
  const int* seen[2] = {nullptr, nullptr};
  std::thread first([&] { seen[0] = registry.GetClient(); });
  std::thread second([&] { seen[1] = registry.GetClient(); });
  first.join();
  second.join();
  if (seen[0] == nullptr || seen[0] != seen[1]) {
    if (sim::active()) sim::fail("the two threads got different clients");
    std::abort();
  }
}

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
void Scenario() {
  std::mutex mutex;
  int count = 0;
  auto work = [&] {
    for (int i = 0; i < kLockRounds; ++i) {
      std::lock_guard lock(mutex);
      ++count;
    }
  };
  std::thread threads[kThreads];
  for (std::thread& thread : threads) thread = std::thread(work);
  for (std::thread& thread : threads) thread.join();
  if (count != kThreads * kLockRounds) {
    if (sim::active()) sim::fail("lost an increment");
    std::abort();
  }
}

template <int kThreads, int kLockRounds>
void BM_ExploreExecutions(benchmark::State& state, const char* strategy) {
  static_assert(kThreads != 2 || SyncOperations(kThreads, kLockRounds) == 52);
  static_assert(kThreads != 4 || SyncOperations(kThreads, kLockRounds) == 200);
  ExploreExecutions(state, Scenario<kThreads, kLockRounds>, strategy, SyncOperations(kThreads, kLockRounds));
}

template <int kThreads, int kLockRounds>
void BM_RealThreadsExecutions(benchmark::State& state) {
  RealThreadsExecutions(state, Scenario<kThreads, kLockRounds>, SyncOperations(kThreads, kLockRounds));
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
