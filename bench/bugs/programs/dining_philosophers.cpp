// dining_philosophers: PHILOSOPHERS philosophers (3 unless -DPHILOSOPHERS=N)
// around a table, each taking the fork on the left, then the one on the
// right, and eating once.
// Shape: deadlock (a cycle of N lock-order inversions, Dijkstra's dining
// philosophers). Needs N-1 preemptions: every philosopher but the last must
// be stopped while holding only the left fork.
//
// Bug: every philosopher holds the left fork and waits for the right one.
// -DFIXED: each takes the lower-numbered of its two forks first (a global
// lock order).
#include <cstdio>
#include <mutex>
#include <thread>

#ifndef PHILOSOPHERS
#define PHILOSOPHERS 3
#endif

int main() {
  constexpr int kPhilosophers = PHILOSOPHERS;
  std::mutex forks[kPhilosophers];
  int meals[kPhilosophers] = {};
  std::thread philosophers[kPhilosophers];
  for (int seat = 0; seat < kPhilosophers; ++seat) {
    philosophers[seat] = std::thread([&, seat] {
      const int left = seat;
      const int right = (seat + 1) % kPhilosophers;
#if defined(FIXED)
      const int first = left < right ? left : right;
      const int second = left < right ? right : left;
#else
      const int first = left;
      const int second = right;
#endif
      std::lock_guard hold_first(forks[first]);
      std::lock_guard hold_second(forks[second]);
      ++meals[seat];
    });
  }
  for (std::thread& philosopher : philosophers) philosopher.join();
  for (int seat = 0; seat < kPhilosophers; ++seat) {
    if (meals[seat] != 1) {
      std::fprintf(stderr, "dining_philosophers: philosopher %d ate %d times\n", seat, meals[seat]);
      return 1;
    }
  }
  return 0;
}
