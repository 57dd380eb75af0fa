// Bug: two workers drain a moodycamel::ConcurrentQueue of invoice amounts
// with `while (queue.size_approx() > 0) { queue.try_dequeue(amount); ... }`,
// ignoring try_dequeue's result. size_approx() is only a hint: when one
// invoice is left, both workers can see 1, one takes it, and the other's
// try_dequeue returns false and leaves `amount` holding the invoice it
// billed last, which it bills again. Users write it because size_approx()
// reads like a size, and the check-then-act looks harmless with a
// "concurrent" queue. The total billed must equal the total enqueued.
#include <concurrentqueue/concurrentqueue.h>

#include <cstdio>
#include <thread>

int main() {
  moodycamel::ConcurrentQueue<int> invoices;
  int expected_total = 0;
  for (int amount = 1; amount <= 4; ++amount) {
    invoices.enqueue(amount * 10);
    expected_total += amount * 10;
  }

  int billed[2] = {0, 0};
  auto bill_all = [&invoices](int& total) {
    int amount = 0;
    while (invoices.size_approx() > 0) {
      invoices.try_dequeue(amount);
      total += amount;
    }
  };
  std::thread first(bill_all, std::ref(billed[0]));
  std::thread second(bill_all, std::ref(billed[1]));
  first.join();
  second.join();

  int total = billed[0] + billed[1];
  if (total != expected_total) {
    std::fprintf(stderr, "billed %d, invoices add up to %d\n", total, expected_total);
    return 1;
  }
  return 0;
}
