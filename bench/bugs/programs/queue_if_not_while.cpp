// queue_if_not_while: a bounded work queue (mutex, condition variable, ring
// buffer) with one producer and two consumers.
// Shape: atomicity violation around a condition wait (the woken waiter's
// condition no longer holds when it runs: "if" instead of "while").
//
// Bug: pop() waits with `if (count_ == 0)`; between the notify that wakes a
// consumer and that consumer getting the mutex back, the other consumer takes
// the item, and the woken one pops an empty queue (a stale slot, a count of -1).
// -DFIXED: `while (count_ == 0)`.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

class WorkQueue {
 public:
  void push(int item) {
    std::lock_guard lock(mutex_);
    slots_[(head_ + count_) % kCapacity] = item;
    ++count_;
    not_empty_.notify_one();
  }

  int pop() {
    std::unique_lock lock(mutex_);
#if defined(FIXED)
    while (count_ == 0) not_empty_.wait(lock);
#else
    if (count_ == 0) not_empty_.wait(lock);
#endif
    const int item = slots_[head_];
    slots_[head_] = 0;
    head_ = (head_ + 1) % kCapacity;
    --count_;
    return item;
  }

 private:
  static constexpr int kCapacity = 4;
  std::mutex mutex_;
  std::condition_variable not_empty_;
  int slots_[kCapacity] = {};
  int head_ = 0;
  int count_ = 0;
};

int main() {
  WorkQueue queue;
  int got[2] = {};
  std::thread first_consumer([&] { got[0] = queue.pop(); });
  std::thread second_consumer([&] { got[1] = queue.pop(); });
  std::thread producer([&] {
    queue.push(1);
    queue.push(2);
  });
  first_consumer.join();
  second_consumer.join();
  producer.join();
  if (got[0] + got[1] != 3) {
    std::fprintf(stderr, "queue_if_not_while: consumers got %d and %d (expected 1 and 2)\n", got[0], got[1]);
    return 1;
  }
  return 0;
}
