// unlocked_counter: three threads each ship a slice of the orders and count
// what they shipped in one shared counter, with ++ and no lock. An increment
// is a load and a store; a thread that runs between them loses an update.
//
// An ordinary program: no simthread API (correct_counter.cpp is the fix).
#include <cstdio>
#include <thread>
#include <vector>

constexpr int kThreads = 3;
constexpr int kOrdersPerThread = 10;

int shipped_count = 0;

// `shipped` may alias shipped_count as far as the compiler knows, so the
// count is loaded and stored on every iteration, as in a real program.
void ship(const int* orders, int* shipped, int count) {
  for (int i = 0; i < count; ++i) {
    shipped[i] = orders[i];
    ++shipped_count;
  }
}

int main() {
  std::vector<int> orders(kThreads * kOrdersPerThread, 1);
  std::vector<int> shipped(orders.size(), 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    const int first = t * kOrdersPerThread;
    threads.emplace_back(ship, orders.data() + first, shipped.data() + first, kOrdersPerThread);
  }
  for (std::thread& thread : threads) thread.join();
  if (shipped_count != kThreads * kOrdersPerThread) {
    std::fprintf(stderr, "unlocked_counter: shipped_count is %d, expected %d\n", shipped_count,
                 kThreads * kOrdersPerThread);
    return 1;
  }
  return 0;
}
