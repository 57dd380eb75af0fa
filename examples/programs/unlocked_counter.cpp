// unlocked_counter: ++counter from three threads without a lock. An increment
// is a load and a store; a thread that runs between them loses an update.
//
// An ordinary program: no simthread API (correct_counter.cpp is the fix).
#include <cstdio>
#include <thread>
#include <vector>

constexpr int kThreads = 3;
constexpr int kIncrements = 20;

long counter = 0;

void work() {
  for (int i = 0; i < kIncrements; ++i) ++counter;
}

int main() {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work);
  for (std::thread& thread : threads) thread.join();
  if (counter != kThreads * kIncrements) {
    std::fprintf(stderr, "unlocked_counter: counter is %ld, expected %d\n", counter, kThreads * kIncrements);
    return 1;
  }
  return 0;
}
