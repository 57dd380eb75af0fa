// connection_limit: a lock-free admission limiter allows one database
// connection at a time; two clients try to acquire it.
// Shape: atomicity violation in a lock-free structure (check-then-act on
// an atomic, and a compare-exchange whose result is ignored).
//
// Bug: try_acquire() loads the count, compares it with the limit, then adds
// one: both clients pass the check and both are admitted.
// -DHALF_FIXED: the increment is a compare_exchange from the value checked,
// but its result is ignored: the loser thinks it was admitted too.
// -DFIXED: a compare_exchange loop that re-checks the limit on failure.
#include <atomic>
#include <cstdio>
#include <thread>

class ConnectionLimiter {
 public:
  explicit ConnectionLimiter(int limit) : limit_(limit) {}

  bool try_acquire() {
#if defined(FIXED)
    int in_use = in_use_.load();
    do {
      if (in_use >= limit_) return false;
    } while (!in_use_.compare_exchange_weak(in_use, in_use + 1));
    return true;
#elif defined(HALF_FIXED)
    int in_use = in_use_.load();
    if (in_use >= limit_) return false;
    in_use_.compare_exchange_strong(in_use, in_use + 1);
    return true;
#else
    if (in_use_.load() >= limit_) return false;
    in_use_.fetch_add(1);
    return true;
#endif
  }

 private:
  const int limit_;
  std::atomic<int> in_use_{0};
};

int main() {
  ConnectionLimiter limiter(1);
  std::atomic<int> admitted{0};
  std::thread first([&] { admitted.fetch_add(limiter.try_acquire() ? 1 : 0); });
  std::thread second([&] { admitted.fetch_add(limiter.try_acquire() ? 1 : 0); });
  first.join();
  second.join();
  if (admitted.load() > 1) {
    std::fprintf(stderr, "connection_limit: %d clients admitted with a limit of 1\n", admitted.load());
    return 1;
  }
  return 0;
}
