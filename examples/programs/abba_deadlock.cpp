// abba_deadlock: two threads take the same two mutexes in opposite orders.
// When each holds its first, each waits for the other's forever.
//
// An ordinary program: no simthread API.
#include <mutex>
#include <thread>

std::mutex accounts;
std::mutex audit_log;
int balance = 100;
int entries = 0;

void transfer() {
  std::lock_guard<std::mutex> first(accounts);
  std::lock_guard<std::mutex> second(audit_log);
  balance -= 10;
  ++entries;
}

void audit() {
  std::lock_guard<std::mutex> first(audit_log);
  std::lock_guard<std::mutex> second(accounts);
  ++entries;
}

int main() {
  std::thread teller(transfer);
  std::thread auditor(audit);
  teller.join();
  auditor.join();
  return balance == 90 && entries == 2 ? 0 : 1;
}
