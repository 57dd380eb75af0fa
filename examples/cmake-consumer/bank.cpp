#include <thread>

#include "account.h"

int main() {
  Account checking(100);
  std::thread first([&] { checking.Withdraw(80); });
  std::thread second([&] { checking.Withdraw(80); });
  first.join();
  second.join();
  return checking.balance() < 0 ? 1 : 0;
}
