// A std::once_flag allocated at the address of a freed one runs its routine:
// the heap hands back the same block each iteration. Natively runs is 3.
#include <memory>
#include <mutex>
#include <thread>

int main() {
  std::thread other([] {});
  int runs = 0;
  for (int i = 0; i < 3; ++i) {
    auto flag = std::make_unique<std::once_flag>();
    std::call_once(*flag, [&] { ++runs; });
  }
  other.join();
  return runs == 3 ? 0 : 1;
}
