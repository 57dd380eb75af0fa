// Two workers take turns on a shared stage only when it is theirs: the
// stage reaches its last value only if they alternate exactly, which needs
// ROUNDS_A + ROUNDS_B - 2 preemptions.
#include <atomic>
#include <cstdio>
#include <thread>
#ifndef ROUNDS_A
#define ROUNDS_A 3
#endif
#ifndef ROUNDS_B
#define ROUNDS_B 2
#endif
std::atomic<int> stage{0};
int main() {
  std::thread a([] {
    for (int i = 0; i < ROUNDS_A; ++i) {
      if (stage.load() == 2 * i) stage.store(2 * i + 1);
    }
  });
  std::thread b([] {
    for (int i = 0; i < ROUNDS_B; ++i) {
      if (stage.load() == 2 * i + 1) stage.store(2 * i + 2);
    }
  });
  a.join();
  b.join();
  if (stage.load() == ROUNDS_A + ROUNDS_B) {
    std::fprintf(stderr, "the workers alternated all the way\n");
    return 1;
  }
  return 0;
}
