// bank_transfer_explore: the demo of the README.
//
// Two tellers move money between accounts. Each transfer checks the balance
// under the account's lock, releases it, and then debits under the lock
// again: an atomicity violation that no data-race detector reports (every
// access is locked), and that a stress test hits once in a blue moon.
// sim::explore finds an interleaving that overdraws the account, prints the
// report with the failing seed, and replays the schedule to show that the
// failure comes back identically.
#include <cstdio>
#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

class Account {
 public:
  explicit Account(int balance) : balance_(balance) {}

  int balance() {
    std::lock_guard guard(mutex_);
    return balance_;
  }

  // The bug: the check and the debit are two critical sections.
  bool Withdraw(int amount) {
    if (balance() < amount) return false;
    std::lock_guard guard(mutex_);
    balance_ -= amount;
    return true;
  }

  void Deposit(int amount) {
    std::lock_guard guard(mutex_);
    balance_ += amount;
  }

 private:
  std::mutex mutex_;
  int balance_;
};

void TwoTellers() {
  Account checking(100);
  Account savings(0);
  auto teller = [&] {
    if (checking.Withdraw(80)) savings.Deposit(80);
  };
  std::thread first(teller);
  std::thread second(teller);
  first.join();
  second.join();
  if (checking.balance() < 0) {
    sim::fail("checking is overdrawn: balance " + std::to_string(checking.balance()));
  }
}

}  // namespace

int main() {
  std::printf("exploring 1000 seeds of two tellers withdrawing 80 from an account of 100...\n");
  std::optional<sim::Report> report = sim::explore(TwoTellers, {.seeds = 1000});
  if (!report) {
    std::printf("no failure in 1000 seeds\n");
    return 0;
  }
  std::printf("failed at seed %llu after %llu passing seeds:\n%s", static_cast<unsigned long long>(report->seed),
              static_cast<unsigned long long>(report->seeds_passed), report->render().c_str());

  std::printf("\nreplaying schedule %s ...\n", report->schedule.c_str());
  std::optional<sim::Report> replayed = sim::explore(TwoTellers, {.seeds = 1, .strategy = "replay:" + report->schedule});
  const bool same = replayed && replayed->message == report->message && replayed->trace_hash == report->trace_hash;
  std::printf("replay: %s (%s, trace hash %016llx)\n", same ? "same failure, same interleaving" : "DIFFERENT",
              replayed ? replayed->message.c_str() : "passed",
              replayed ? static_cast<unsigned long long>(replayed->trace_hash) : 0ULL);
  return same ? 1 : 2;  // 1: the bug was found and replayed, as expected
}
