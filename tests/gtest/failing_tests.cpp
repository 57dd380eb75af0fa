// Deliberately failing SIM_TESTs. ctest never runs this binary directly:
// the scripts beside it run it and check how it fails.
#include <string>
#include <thread>

#include "racy_account.h"
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

using Account = RacyAccount;

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
// Critical sections on a thread's own mutex: choice points that touch nothing shared.
void Noise(int sections) {
  std::mutex own;
  for (int i = 0; i < sections; ++i) std::lock_guard guard(own);
}

SIM_TEST(Failing, LateWriterBetween) {
  std::mutex mutex;
  std::string log;
  auto step = [&](char name) {
    std::lock_guard guard(mutex);
    log += name;
  };
  auto noise = Noise;
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

// As LateWriterBetween, but the one bad interleaving (b's check between a's
// check and a's claim) frees the buffer twice, and glibc aborts inside
// free(), where the heap may be locked: the report is the short one written
// from the signal handler, and its replay line must be this test's and
// carry pct's estimate too (crash_replay_line_carries_pct_estimate.sh). The
// second free gets an address glibc rejects whatever the heap holds ("free():
// invalid pointer"), so the crash replays in a process of its own, as a
// plain double free, caught or not by the state of the heap, need not.
SIM_TEST(Failing, DoubleFreeBetween) {
  std::mutex mutex;
  char* buffer = new char[16];
  bool claimed = false;
  auto unclaimed = [&] {
    std::lock_guard guard(mutex);
    return !claimed;
  };
  auto claim_and_free = [&] {
    {
      std::lock_guard guard(mutex);
      claimed = true;
    }
    delete[] buffer;
    buffer += 1;  // no scheduling point between the free and this
  };
  std::thread a([&] {
    const bool mine = unclaimed();
    Noise(5);
    if (mine) claim_and_free();
    Noise(40);
  });
  std::thread b([&] {
    Noise(30);
    if (unclaimed()) claim_and_free();
    Noise(40);
  });
  a.join();
  b.join();
}

}  // namespace
