// spin_locked.h: a value any real thread may change at any time (a library
// constructor, a dlopen from another thread), guarded by a spin lock: a
// pthread lock would re-enter the runtime's own interceptors.
#ifndef SIM_RUNTIME_CORE_SPIN_LOCKED_H_
#define SIM_RUNTIME_CORE_SPIN_LOCKED_H_

#include <atomic>

namespace sim::internal {

template <typename T>
class SpinLocked {
 public:
  T Snapshot() {
    Lock();
    T copy = value_;
    Unlock();
    return copy;
  }
  template <typename Change>
  void Update(Change change) {
    Lock();
    change(value_);
    Unlock();
  }

 private:
  void Lock() {
    while (locked_.test_and_set(std::memory_order_acquire)) {
    }
  }
  void Unlock() { locked_.clear(std::memory_order_release); }

  T value_{};
  std::atomic_flag locked_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_SPIN_LOCKED_H_
