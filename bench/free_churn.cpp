// free_churn.cpp: what free costs a whole program built with sim-clang++,
// now that the world forgets the sync-object models of freed memory
// (runtime/interceptors/memory.cpp). 4 threads each malloc and free
// `rounds` blocks with no instrumented access between (so nothing but the
// allocator and free's interceptor runs), taking a mutex every 4,096
// rounds. Run by hand (docs/performance.md, "What free costs"): natively
// (no SIM_OPTIONS: every free passes through the interceptor outside a
// world) and in a world.
//
//   free_churn few ROUNDS    the world has a handful of models
//   free_churn many ROUNDS   2,000 live mutexes (1,000 on the heap, 1,000 on
//                            main's stack), each locked once first
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

std::mutex mutex;
long total = 0;

__attribute__((noinline)) void Churn(int rounds) {
  for (int i = 0; i < rounds; ++i) {
    void* block = std::malloc(16 + (i & 255));
    asm volatile("" : : "r"(block));  // keeps the pair; no instrumented access
    std::free(block);
    if ((i & 4095) == 0) {
      std::lock_guard lock(mutex);
      ++total;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool many = argc > 1 && std::strcmp(argv[1], "many") == 0;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 1000000;
  std::vector<std::unique_ptr<std::mutex>> heap_mutexes;
  std::mutex stack_mutexes[1000];
  if (many) {
    for (std::mutex& on_stack : stack_mutexes) {
      heap_mutexes.push_back(std::make_unique<std::mutex>());
      std::lock_guard a(*heap_mutexes.back());
      std::lock_guard b(on_stack);
    }
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(Churn, rounds);
  for (auto& thread : threads) thread.join();
  return total > 0 ? 0 : 1;
}
