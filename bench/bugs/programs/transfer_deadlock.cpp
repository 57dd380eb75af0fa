// transfer_deadlock: two transfers between the same two accounts in opposite
// directions, each locking the source account and then the destination.
// Shape: deadlock (ABBA lock-order inversion).
//
// Bug: alice->bob holds alice and waits for bob while bob->alice holds bob
// and waits for alice.
// -DFIXED: both transfers lock the account with the lower id first.
#include <cstdio>
#include <mutex>
#include <thread>

struct Account {
  int id;
  int balance;
  std::mutex mutex;
};

void Transfer(Account& from, Account& to, int amount) {
#if defined(FIXED)
  Account& first = from.id < to.id ? from : to;
  Account& second = from.id < to.id ? to : from;
#else
  Account& first = from;
  Account& second = to;
#endif
  std::lock_guard lock_first(first.mutex);
  std::lock_guard lock_second(second.mutex);
  from.balance -= amount;
  to.balance += amount;
}

int main() {
  Account alice{1, 100, {}};
  Account bob{2, 100, {}};
  std::thread pay_bob([&] { Transfer(alice, bob, 30); });
  std::thread pay_alice([&] { Transfer(bob, alice, 20); });
  pay_bob.join();
  pay_alice.join();
  if (alice.balance + bob.balance != 200) {
    std::fprintf(stderr, "transfer_deadlock: money was created or destroyed\n");
    return 1;
  }
  return 0;
}
