// lost_wakeup: a one-shot event (a "ready" flag with a condition variable); a
// worker waits for it and a loader sets it.
// Shape: lost wakeup (a notify that reaches nobody), seen as a hang.
//
// Bug: wait() tests the flag without the mutex and only then locks and
// waits; set() stores and notifies in between, and the waiter sleeps forever.
// -DHALF_FIXED: wait() tests the flag under the mutex, in a loop, but set()
// stores it without taking the mutex, so the store and notify still fit
// between the waiter's test and its wait.
// -DFIXED: set() stores under the mutex.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

class Event {
 public:
  void set() {
#if defined(FIXED)
    {
      std::lock_guard lock(mutex_);
      is_set_ = true;
    }
#else
    is_set_ = true;
#endif
    changed_.notify_all();
  }

  void wait() {
#if defined(FIXED) || defined(HALF_FIXED)
    std::unique_lock lock(mutex_);
    while (!is_set_) changed_.wait(lock);
#else
    if (!is_set_) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock);
    }
#endif
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::atomic<bool> is_set_{false};
};

int main() {
  Event config_loaded;
  int config = 0;
  int seen = 0;
  std::thread worker([&] {
    config_loaded.wait();
    seen = config;
  });
  std::thread loader([&] {
    config = 42;
    config_loaded.set();
  });
  worker.join();
  loader.join();
  if (seen != 42) {
    std::fprintf(stderr, "lost_wakeup: the worker saw config %d\n", seen);
    return 1;
  }
  return 0;
}
