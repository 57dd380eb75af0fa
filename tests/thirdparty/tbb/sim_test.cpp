// correct.cpp's body as a SIM_TEST: producers and consumers share a
// tbb::concurrent_queue, consumers count orders per customer in a
// tbb::concurrent_hash_map under its write accessor, and a tbb::parallel_for
// on oneTBB's worker pool sums the counts; every order is counted once.
// oneTBB starts its workers once per process, so this needs every execution
// of the SIM_TEST to start from a fresh library (issue 15 item 4).
#include <tbb/blocked_range.h>
#include <tbb/concurrent_hash_map.h>
#include <tbb/concurrent_queue.h>
#include <tbb/parallel_for.h>

#include <thread>
#include <vector>

#include "sim/gtest.h"

namespace {

constexpr int kProducers = 2;
constexpr int kOrdersPerProducer = 12;
constexpr int kCustomers = 4;
constexpr int kDone = -1;

using OrdersByCustomer = tbb::concurrent_hash_map<int, int>;

void Produce(tbb::concurrent_queue<int>& orders, int producer) {
  for (int i = 0; i < kOrdersPerProducer; ++i) {
    orders.push((producer * kOrdersPerProducer + i) % kCustomers);
  }
}

void Consume(tbb::concurrent_queue<int>& orders, OrdersByCustomer& counts) {
  for (;;) {
    int customer;
    if (!orders.try_pop(customer)) {
      std::this_thread::yield();
      continue;
    }
    if (customer == kDone) return;
    OrdersByCustomer::accessor count;
    counts.insert(count, customer);
    ++count->second;
  }
}

SIM_TEST(OneTbb, EveryOrderIsCountedOnce) {
  tbb::concurrent_queue<int> orders;
  OrdersByCustomer counts;
  std::vector<std::thread> consumers;
  for (int i = 0; i < 2; ++i) consumers.emplace_back(Consume, std::ref(orders), std::ref(counts));
  std::vector<std::thread> producers;
  for (int i = 0; i < kProducers; ++i) producers.emplace_back(Produce, std::ref(orders), i);
  for (auto& producer : producers) producer.join();
  for (size_t i = 0; i < consumers.size(); ++i) orders.push(kDone);
  for (auto& consumer : consumers) consumer.join();

  std::vector<int> per_customer(kCustomers, 0);
  tbb::parallel_for(tbb::blocked_range<int>(0, kCustomers), [&](const tbb::blocked_range<int>& range) {
    for (int customer = range.begin(); customer != range.end(); ++customer) {
      OrdersByCustomer::const_accessor count;
      if (counts.find(count, customer)) per_customer[customer] = count->second;
    }
  });
  int total = 0;
  for (int count : per_customer) total += count;
  EXPECT_EQ(total, kProducers * kOrdersPerProducer);
}

}  // namespace
