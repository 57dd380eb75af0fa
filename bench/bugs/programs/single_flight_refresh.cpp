// single_flight_refresh: a cache refreshes itself in the background; a
// "refreshing" flag is meant to let only one caller rebuild at a time while
// the others skip.
// Shape: atomicity violation on a hand-rolled try-lock (test, then set).
//
// Bug: maybe_refresh() loads the flag and stores true in two steps; a second
// caller can pass the test in between, and two rebuilds overlap if the
// second also runs while the first is inside its rebuild. Needs two
// preemptions: the first caller between test and set, and the second inside
// its rebuild.
// -DFIXED: exchange(true), a test-and-set in one atomic step.
#include <atomic>
#include <cstdio>
#include <thread>

class Cache {
 public:
  void maybe_refresh() {
#if defined(FIXED)
    if (refreshing_.exchange(true)) return;
#else
    if (refreshing_.load()) return;
    refreshing_.store(true);
#endif
    if (rebuilds_running_.fetch_add(1) != 0) overlapped_ = true;
    entries_ = entries_ + 1;  // the rebuild itself
    rebuilds_running_.fetch_sub(1);
    refreshing_.store(false);
  }

  bool overlapped() const { return overlapped_; }

 private:
  std::atomic<bool> refreshing_{false};
  std::atomic<int> rebuilds_running_{0};
  std::atomic<bool> overlapped_{false};
  int entries_ = 0;
};

int main() {
  Cache cache;
  std::thread first([&] { cache.maybe_refresh(); });
  std::thread second([&] { cache.maybe_refresh(); });
  first.join();
  second.join();
  if (cache.overlapped()) {
    std::fprintf(stderr, "single_flight_refresh: two rebuilds ran at once\n");
    return 1;
  }
  return 0;
}
