#include "account.h"

bool Account::Withdraw(int amount) {
#ifdef ACCOUNT_SPLIT_CHECK
  if (balance() < amount) return false;  // the check and the debit in two critical sections
#endif
  std::lock_guard guard(mutex_);
#ifndef ACCOUNT_SPLIT_CHECK
  if (balance_ < amount) return false;
#endif
  balance_ -= amount;
  return true;
}

int Account::balance() {
  std::lock_guard guard(mutex_);
  return balance_;
}
