// correct_counter: unlocked_counter.cpp with the increment under a mutex.
// Passes under every seed.
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

constexpr int kThreads = 3;
constexpr int kIncrements = 20;

std::mutex counter_mutex;
long counter = 0;

void work() {
  for (int i = 0; i < kIncrements; ++i) {
    std::lock_guard<std::mutex> guard(counter_mutex);
    ++counter;
  }
}

int main() {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work);
  for (std::thread& thread : threads) thread.join();
  if (counter != kThreads * kIncrements) {
    std::fprintf(stderr, "correct_counter: counter is %ld, expected %d\n", counter, kThreads * kIncrements);
    return 1;
  }
  return 0;
}
