// hit_counter: two request handlers count page hits in a shared counter.
// Shape: lost update (read-modify-write that is not atomic).
//
// Bug: a plain int incremented from two threads (a data race): both read the
// same value and one hit is lost.
// -DHALF_FIXED: the counter is a std::atomic<int>, but the increment is a
// load and a separate store, so an update is still lost (and no data-race
// detector can see it any more: every access is atomic).
// -DFIXED: fetch_add.
#include <atomic>
#include <cstdio>
#include <thread>

class HitCounter {
 public:
  void record_hit() {
#if defined(FIXED)
    hits_.fetch_add(1);
#elif defined(HALF_FIXED)
    hits_.store(hits_.load() + 1);
#else
    ++hits_;
#endif
  }

  int hits() const { return hits_; }

 private:
#if defined(FIXED) || defined(HALF_FIXED)
  std::atomic<int> hits_{0};
#else
  int hits_ = 0;
#endif
};

int main() {
  HitCounter counter;
  std::thread first([&] { counter.record_hit(); });
  std::thread second([&] { counter.record_hit(); });
  first.join();
  second.join();
  if (counter.hits() != 2) {
    std::fprintf(stderr, "hit_counter: 2 hits recorded as %d\n", counter.hits());
    return 1;
  }
  return 0;
}
