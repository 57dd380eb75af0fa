#include <thread>

#include <sim/gtest.h>

#include "account.h"

SIM_TEST(Account, TwoTellersNeverOverdraw) {
  Account checking(100);
  std::thread first([&] { checking.Withdraw(80); });
  std::thread second([&] { checking.Withdraw(80); });
  first.join();
  second.join();
  EXPECT_GE(checking.balance(), 0);
}
