// README's Withdraw: the check locks, reads and unlocks inside balance(), and
// the act takes the lock again. Every access is locked; the window is not.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <mutex>

class Account {
 public:
  int balance() {
    std::lock_guard guard(mutex_);
    return balance_;
  }

  bool Withdraw(int amount) {
    if (balance() < amount) return false;
    std::lock_guard guard(mutex_);
    balance_ -= amount;
    return true;
  }

 private:
  std::mutex mutex_;
  int balance_ = 100;
};

// CHECK: lock_released_between_check_and_act.cpp:14:9: warning: check-then-act window on Account::balance_ (read-modify-write split over two sections)
// CHECK-NEXT: check: {{.*}}:14:9 `balance() < amount` in Account::balance(); locks held: mutex_ (inside Account::balance())
// CHECK-NEXT: act: {{.*}}:16:5 `balance_ -= amount`; locks held: mutex_ (lock_guard, line 15)
// CHECK-NEXT: why: the check's lock on mutex_ is released before the act takes mutex_
// CHECK: gate: account.balance
// CHECK-NEXT: insert at {{.*}}:15:5: SIM_GATE("account.balance");
// CHECK: std::thread first([&] { object.Withdraw(int{}); });
// CHECK: sim-gate-finder: 1 window
