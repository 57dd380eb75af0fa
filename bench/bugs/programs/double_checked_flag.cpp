// double_checked_flag: a settings singleton behind double-checked locking.
// Shape: atomicity violation in double-checked initialisation (the "ready"
// flag is set before the object exists).
//
// Bug: the builder sets ready_ first and then builds; a caller that sees
// ready_ in between returns a null settings pointer.
// -DHALF_FIXED: the flag is set last, but the check is not repeated under the
// mutex, so two callers can both build (two Settings objects).
// -DFIXED: re-check under the mutex, build, then set the flag.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

struct Settings {
  int timeout_ms = 250;
};

class SettingsHolder {
 public:
  ~SettingsHolder() { delete settings_.load(); }

  const Settings* get() {
    if (!ready_.load()) {
      std::lock_guard lock(mutex_);
#if defined(FIXED)
      if (!ready_.load()) {
        Build();
        ready_.store(true);
      }
#elif defined(HALF_FIXED)
      Build();
      ready_.store(true);
#else
      if (!ready_.load()) {
        ready_.store(true);
        Build();
      }
#endif
    }
    return settings_.load();
  }

  int builds() const { return builds_; }

 private:
  void Build() {
    ++builds_;
    settings_.store(new Settings);  // a second build leaks the first
  }

  std::mutex mutex_;
  std::atomic<bool> ready_{false};
  std::atomic<Settings*> settings_{nullptr};
  int builds_ = 0;
};

int main() {
  SettingsHolder holder;
  const Settings* seen[2] = {};
  std::thread first([&] { seen[0] = holder.get(); });
  std::thread second([&] { seen[1] = holder.get(); });
  first.join();
  second.join();
  if (seen[0] == nullptr || seen[1] == nullptr || seen[0] != seen[1] || holder.builds() != 1) {
    std::fprintf(stderr, "double_checked_flag: callers got %p and %p after %d builds\n", static_cast<const void*>(seen[0]),
                 static_cast<const void*>(seen[1]), holder.builds());
    return 1;
  }
  return 0;
}
