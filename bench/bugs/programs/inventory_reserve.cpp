// inventory_reserve: two orders reserve stock from one warehouse bin. Every
// access to the stock count holds the bin's mutex.
// Shape: atomicity violation with locks (check and act in two critical
// sections), invisible to a data-race detector.
//
// Bug: reserve() checks available() (lock, read, unlock) and then takes the
// lock again to subtract; both orders can pass the check, and the stock goes
// negative.
// -DFIXED: the check and the subtraction in one critical section.
#include <cstdio>
#include <mutex>
#include <thread>

class Bin {
 public:
  explicit Bin(int stock) : stock_(stock) {}

  int available() {
    std::lock_guard lock(mutex_);
    return stock_;
  }

  bool reserve(int quantity) {
#if defined(FIXED)
    std::lock_guard lock(mutex_);
    if (stock_ < quantity) return false;
#else
    if (available() < quantity) return false;
    std::lock_guard lock(mutex_);
#endif
    stock_ -= quantity;
    return true;
  }

 private:
  std::mutex mutex_;
  int stock_;
};

int main() {
  Bin bin(5);
  bool first_reserved = false;
  bool second_reserved = false;
  std::thread first([&] { first_reserved = bin.reserve(3); });
  std::thread second([&] { second_reserved = bin.reserve(4); });
  first.join();
  second.join();
  if (bin.available() < 0) {
    std::fprintf(stderr, "inventory_reserve: stock is %d after reserving 3 (%d) and 4 (%d)\n", bin.available(),
                 first_reserved, second_reserved);
    return 1;
  }
  return 0;
}
