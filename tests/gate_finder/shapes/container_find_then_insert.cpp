// find() == end(), then operator[] with the same key, each under its own lock.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <map>
#include <mutex>
#include <string>

class PriceCache {
 public:
  void remember(const std::string& sku, int price) {
    {
      std::lock_guard lock(mutex_);
      if (prices_.find(sku) != prices_.end()) return;
    }
    std::lock_guard lock(mutex_);
    prices_[sku] = price;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, int> prices_;
};

// CHECK: container_find_then_insert.cpp:12:11: warning: check-then-act window on PriceCache::prices_ (check-then-act on a container) [sim-gate-finder:container]
// CHECK-NEXT: check: {{.*}}:12:11 `prices_.find(sku) != prices_.end()`; locks held: mutex_ (lock_guard, line 11)
// CHECK-NEXT: act: {{.*}}:15:5 `prices_[sku] = price`; locks held: mutex_ (lock_guard, line 14)
// CHECK-NEXT: why: the check's lock on mutex_ is released before the act takes mutex_
// CHECK: insert at {{.*}}:14:5: SIM_GATE("price_cache.prices");
// CHECK: std::thread first([&] { object.remember(std::string{}, int{}); });
// CHECK: sim-gate-finder: 1 window
