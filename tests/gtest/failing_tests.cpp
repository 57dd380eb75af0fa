// Deliberately failing SIM_TESTs. ctest never runs this binary directly:
// the scripts beside it run it and check how it fails.
#include <mutex>
#include <thread>

#include "sim/gtest.h"

namespace {

// Fails at the first seed of every chunk (the --gtest_repeat script reads it).
SIM_TEST(Failing, AlwaysFails) { EXPECT_EQ(1 + 1, 3) << "arithmetic"; }

// A non-fatal failure in a simulated thread fails the seed; the execution
// runs on (the second expectation is reported too).
SIM_TEST(Failing, ExpectInAThread) {
  std::thread worker([] { EXPECT_EQ(2 * 2, 5) << "in the worker"; });
  worker.join();
  EXPECT_TRUE(false) << "after the join";
}

// A fatal failure in a simulated thread ends the execution at once.
SIM_TEST(Failing, AssertInAThreadEndsTheExecution) {
  std::thread worker([] { ASSERT_TRUE(false) << "fatal in the worker"; });
  worker.join();
  sim::fail("not reached: the execution continued after ASSERT_TRUE failed");
}

// A check-then-act race every lock of which is correct: only some
// interleavings lose an update.
class Account {
 public:
  int balance() {
    std::lock_guard guard(mutex_);
    return balance_;
  }
  void Withdraw(int amount) {
    if (balance() < amount) return;
    std::lock_guard guard(mutex_);
    balance_ -= amount;
  }

 private:
  std::mutex mutex_;
  int balance_ = 100;
};

SIM_TEST(Failing, OverdrawnAccount) {
  Account account;
  std::thread first([&] { account.Withdraw(80); });
  std::thread second([&] { account.Withdraw(80); });
  first.join();
  second.join();
  EXPECT_GE(account.balance(), 0) << "the account is overdrawn";
}

}  // namespace
