// account.h: an account whose withdraw checks and debits in one critical section.
#pragma once
#include <mutex>

class Account {
 public:
  explicit Account(int balance) : balance_(balance) {}
  bool Withdraw(int amount);
  int balance();

 private:
  std::mutex mutex_;
  int balance_;
};
