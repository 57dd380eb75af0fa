// snapshot_trylock: a hand-rolled non-blocking reader/writer protocol around
// a two-field position (x, y): a writer announces itself with a flag and only
// writes when no reader is inside; a reader announces itself with a counter
// and only reads when no writer is inside. Either side gives up (tries again
// later) instead of waiting.
// Shape: atomicity violation in a hand-rolled lock (Dekker's announce-then-
// check order broken), seen as a torn read.
//
// Bug: the reader checks the writer flag before announcing itself. Needs two
// preemptions: the reader between its check and its announcement, and the
// writer between its two stores; the reader then reads one new and one old
// field.
// -DFIXED: the reader announces itself first and then checks the flag (with
// sequentially consistent atomics one of the two sides sees the other).
#include <atomic>
#include <cstdio>
#include <thread>

class Position {
 public:
  // Returns false when a reader is inside; the caller tries again later.
  bool try_write(int x, int y) {
    writing_.store(true);
    if (readers_.load() != 0) {
      writing_.store(false);
      return false;
    }
    x_.store(x);
    y_.store(y);
    writing_.store(false);
    return true;
  }

  // Returns false when a writer is inside; the caller tries again later.
  bool try_read(int& x, int& y) {
#if defined(FIXED)
    readers_.fetch_add(1);
    if (writing_.load()) {
      readers_.fetch_sub(1);
      return false;
    }
#else
    if (writing_.load()) return false;
    readers_.fetch_add(1);
#endif
    x = x_.load();
    y = y_.load();
    readers_.fetch_sub(1);
    return true;
  }

 private:
  std::atomic<bool> writing_{false};
  std::atomic<int> readers_{0};
  std::atomic<int> x_{0};
  std::atomic<int> y_{0};
};

int main() {
  Position position;
  bool torn = false;
  std::thread writer([&] { position.try_write(5, 5); });
  std::thread reader([&] {
    int x = 0;
    int y = 0;
    if (position.try_read(x, y) && x != y) torn = true;
  });
  writer.join();
  reader.join();
  if (torn) {
    std::fprintf(stderr, "snapshot_trylock: the reader saw a half-written position\n");
    return 1;
  }
  return 0;
}
