// price_cache.h: our cache in front of the vendored Repository.
//
// Recipe 4 of docs/cookbook.md. price(sku) returns the cached price, fetching
// it on a miss; concurrent misses for one SKU must share one fetch (a cache
// stampede costs a round trip each and hands callers different revisions).
// The window is inside Repository::fetch, which we cannot edit: the test
// holds it through the function gate -fsim-gate=Repository::fetch.
//
// The three-way check:
//   (default)                     single flight: the first miss claims the
//                                 SKU, later misses wait for its fetch
//   -DMUTANT_CHECK_THEN_FETCH     look up, fetch, store (each step locked)
//   -DMUTANT_RECHECK_BEFORE_STORE look up, fetch, re-check and keep the first
//                                 stored price: callers agree, but the
//                                 service is still called twice
#ifndef COOKBOOK_PRICE_CACHE_H_
#define COOKBOOK_PRICE_CACHE_H_

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>

#include "vendor/repository.h"

class PriceCache {
 public:
  explicit PriceCache(Repository& repository) : repository_(repository) {}

  std::string price(const std::string& sku) {
#if defined(MUTANT_CHECK_THEN_FETCH) || defined(MUTANT_RECHECK_BEFORE_STORE)
    {
      std::lock_guard lock(mutex_);
      if (auto it = prices_.find(sku); it != prices_.end()) return it->second.value;
    }
    const std::string value = repository_.fetch(sku);
    std::lock_guard lock(mutex_);
#if defined(MUTANT_RECHECK_BEFORE_STORE)
    if (auto it = prices_.find(sku); it != prices_.end()) return it->second.value;
#endif
    prices_[sku] = Entry{value, true};
    return value;
#else
    std::unique_lock lock(mutex_);
    auto [it, claimed] = prices_.try_emplace(sku);
    Entry& entry = it->second;  // std::map: the reference stays valid
    if (!claimed) {
      fetched_.wait(lock, [&entry] { return entry.ready; });  // another caller is fetching it
      return entry.value;
    }
    lock.unlock();
    const std::string value = repository_.fetch(sku);  // no lock held across the round trip
    lock.lock();
    entry = Entry{value, true};
    fetched_.notify_all();
    return value;
#endif
  }

 private:
  struct Entry {
    std::string value;
    bool ready = false;
  };

  Repository& repository_;
  std::mutex mutex_;
  std::condition_variable fetched_;
  std::map<std::string, Entry> prices_;
};

#endif  // COOKBOOK_PRICE_CACHE_H_
