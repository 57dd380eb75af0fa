// Deliberately failing SIM_TESTs. ctest never runs this binary directly:
// the scripts beside it run it and check how it fails.
#include <mutex>
#include <string>
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

// Only one interleaving puts b between a and A, and every execution has well
// over 64 choice points (the private critical sections), so pct's estimate of
// the execution length moves after the first seed: the replay line must
// carry it (replay_line_carries_pct_estimate.sh).
SIM_TEST(Failing, LateWriterBetween) {
  std::mutex mutex;
  std::string log;
  auto step = [&](char name) {
    std::lock_guard guard(mutex);
    log += name;
  };
  auto noise = [](int sections) {
    std::mutex own;
    for (int i = 0; i < sections; ++i) std::lock_guard guard(own);
  };
  std::thread a([&] {
    step('a');
    noise(5);
    step('A');
    noise(40);
  });
  std::thread b([&] {
    noise(30);
    step('b');
    noise(40);
  });
  a.join();
  b.join();
  EXPECT_NE(log, "abA") << "b ran between a and A";
}

}  // namespace
