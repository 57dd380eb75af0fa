// price_cache_test.cpp: recipe 4 of docs/cookbook.md, a function gate on a
// collaborator that cannot be edited.
//
// vendor/repository.cpp is compiled with -fsim-gate=Repository::fetch, so
// the entry of Repository::fetch is a gate named "Repository::fetch", held
// here exactly like a SIM_GATE.
//
//   sim-clang++ -std=c++20 -O1 -g -fsim-gate=Repository::fetch -c vendor/repository.cpp -o repository.o
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -I. price_cache_test.cpp repository.o -o price_cache_test
//   (-DMUTANT_CHECK_THEN_FETCH / -DMUTANT_RECHECK_BEFORE_STORE for the mutants)
#include <chrono>
#include <string>
#include <thread>

#include <sim/gtest.h>

#include "price_cache.h"
#include "vendor/repository.h"

namespace {

using namespace std::chrono_literals;

SIM_TEST(PriceCache, SecondMissDuringTheFetchSharesIt) {
  Repository repository;
  PriceCache cache(repository);
  std::string seen[2];
  sim::Gate fetch = sim::Gate::hold("Repository::fetch");
  std::thread first([&] { seen[0] = cache.price("sku-7"); });
  fetch.await_arrivals(1);  // first missed and is parked at the entry of Repository::fetch
  std::thread second([&] { seen[1] = cache.price("sku-7"); });
  // In a world, virtual time advances only when no other thread can run: this
  // returns once `second` is parked at the gate too, or waiting for `first`.
  std::this_thread::sleep_for(1ms);
  fetch.release();
  first.join();
  second.join();
  EXPECT_EQ(repository.requests(), 1) << "one SKU was fetched " << repository.requests() << " times";
  EXPECT_EQ(seen[1], seen[0]) << "the two callers got different revisions";
}

}  // namespace
