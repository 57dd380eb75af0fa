// std::async in a loop: each call's shared state is set through a
// std::once_flag of its own, at an address the heap reuses once the
// previous future is gone.
#include <cstdio>
#include <future>

int main() {
  constexpr int kCalls = 30;
  long sum = 0;
  for (int i = 1; i <= kCalls; ++i) {
    std::future<int> result = std::async(std::launch::async, [i] { return i; });
    sum += result.get();
  }
  if (sum != kCalls * (kCalls + 1) / 2) {
    std::fprintf(stderr, "sum %ld, expected %d\n", sum, kCalls * (kCalls + 1) / 2);
    return 1;
  }
  return 0;
}
