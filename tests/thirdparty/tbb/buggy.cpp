// The buggy twin of correct.cpp: two consumers each count an order of the
// same customer in a tbb::concurrent_hash_map, but they read the count with find() under a
// const_accessor, release it, and then insert() the incremented value under
// a write accessor. Each call is thread-safe, so the code looks safe, but the
// read and the write are two critical sections: two consumers can read the
// same count and one order is lost. Users write this because find-then-insert
// is how a std::map is updated, and "the container is concurrent" seems to
// cover the pair.
#include <tbb/concurrent_hash_map.h>

#include <cassert>
#include <thread>

namespace {

constexpr int kCustomer = 7;

using OrdersByCustomer = tbb::concurrent_hash_map<int, int>;

void CountOrder(OrdersByCustomer& counts) {
  int seen = 0;
  {
    OrdersByCustomer::const_accessor reader;
    if (counts.find(reader, kCustomer)) seen = reader->second;
  }
  // Another consumer may count an order of the same customer here.
  OrdersByCustomer::accessor writer;
  counts.insert(writer, kCustomer);
  writer->second = seen + 1;
}

}  // namespace

int main() {
  OrdersByCustomer counts;
  std::thread first(CountOrder, std::ref(counts));
  std::thread second(CountOrder, std::ref(counts));
  first.join();
  second.join();
  OrdersByCustomer::const_accessor count;
  assert(counts.find(count, kCustomer) && count->second == 2 && "an order was lost");
  return 0;
}
