// scenarios.h: the bodies whose executions per second issue 6 asks for,
// shared by executions_bench (in-process, through sim::explore) and
// scenario_program (whole-program, through sim-run), so both measure the
// same code.
//
//   registry    issue 6's "2-thread registry scenario": two threads ask a
//               registry for the same client; the first creates it under
//               the registry's mutex, the second finds it; the body checks
//               both got the same one. 2 creates + 2 joins + 2 locks +
//               2 unlocks = 8 synchronisation operations.
//   lock loops  the body starts T threads; each locks and unlocks one
//               std::mutex R times around an increment; the body joins them
//               all and checks the count. T creates + T joins + 2 * T * R
//               (lock + unlock) operations:
//                 2 threads, R = 12:  52 operations (the small scenario
//                                     before the registry one was added)
//                 4 threads, R = 24: 200 operations (issue 6's "4-thread,
//                                     200-operation")
// Each operation is a scheduling point in a world.
#ifndef SIM_BENCH_SCENARIOS_H_
#define SIM_BENCH_SCENARIOS_H_

#include <memory>
#include <mutex>
#include <thread>

namespace sim_bench {

// What a scenario does when its check fails (it never should: these bodies
// are correct). Each program that includes this defines it.
[[noreturn]] void ScenarioFailed(const char* what);

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

inline constexpr int kRegistrySyncOperations = 8;

inline void RegistryScenario() {
  Registry registry;
  const int* seen[2] = {nullptr, nullptr};
  std::thread first([&] { seen[0] = registry.GetClient(); });
  std::thread second([&] { seen[1] = registry.GetClient(); });
  first.join();
  second.join();
  if (seen[0] == nullptr || seen[0] != seen[1]) ScenarioFailed("the two threads got different clients");
}

constexpr int LockLoopSyncOperations(int threads, int lock_rounds) { return 2 * threads + 2 * threads * lock_rounds; }

template <int kThreads, int kLockRounds>
void LockLoopScenario() {
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
  if (count != kThreads * kLockRounds) ScenarioFailed("lost an increment");
}

}  // namespace sim_bench

#endif  // SIM_BENCH_SCENARIOS_H_
