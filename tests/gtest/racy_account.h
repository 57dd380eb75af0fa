// racy_account.h: a check-then-act race every lock of which is correct, for
// the deliberately failing SIM_TESTs: two withdrawals of 80 from 100 may
// both pass the check, and the second overdraws the account.
#ifndef SIM_TESTS_GTEST_RACY_ACCOUNT_H_
#define SIM_TESTS_GTEST_RACY_ACCOUNT_H_

#include <mutex>

class RacyAccount {
 public:
  int balance() {
    std::lock_guard guard(mutex_);
    return balance_;
  }
  void Withdraw(int amount) {
    if (balance() < amount) return;
    std::lock_guard guard(mutex_);  // another thread may withdraw in between
    balance_ -= amount;
  }

 private:
  std::mutex mutex_;
  int balance_ = 100;
};

#endif  // SIM_TESTS_GTEST_RACY_ACCOUNT_H_
