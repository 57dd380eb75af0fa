// A bounded job queue on absl::Mutex: Push waits on an absl::CondVar while
// the queue is full, Pop blocks in Mutex::LockWhen on an absl::Condition
// until a job or the close arrives. One producer and two consumers start
// together on an absl::Notification and report done through an
// absl::BlockingCounter, and main reads the running total under a
// ReaderMutexLock. Checked: every job is consumed exactly once (the total
// and the count match), and the queue never held more than its capacity.
#include <absl/synchronization/blocking_counter.h>
#include <absl/synchronization/mutex.h>
#include <absl/synchronization/notification.h>

#include <cstdio>
#include <deque>
#include <thread>
#include <vector>

namespace {

constexpr int kJobs = 10;
constexpr size_t kCapacity = 2;

class BoundedJobQueue {
 public:
  void Push(int job) {
    absl::MutexLock lock(&mutex_);
    while (jobs_.size() == kCapacity) not_full_.Wait(&mutex_);
    jobs_.push_back(job);
    if (jobs_.size() > most_held_) most_held_ = jobs_.size();
  }

  void Close() {
    absl::MutexLock lock(&mutex_);
    closed_ = true;
  }

  // False once the queue is closed and empty.
  bool Pop(int& job) {
    mutex_.LockWhen(absl::Condition(this, &BoundedJobQueue::HasJobOrClosed));
    bool got_one = !jobs_.empty();
    if (got_one) {
      job = jobs_.front();
      jobs_.pop_front();
      not_full_.Signal();
    }
    mutex_.Unlock();
    return got_one;
  }

  size_t most_held() {
    absl::MutexLock lock(&mutex_);
    return most_held_;
  }

 private:
  bool HasJobOrClosed() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return closed_ || !jobs_.empty();
  }

  absl::Mutex mutex_;
  absl::CondVar not_full_;
  std::deque<int> jobs_ ABSL_GUARDED_BY(mutex_);
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
  size_t most_held_ ABSL_GUARDED_BY(mutex_) = 0;
};

class Tally {
 public:
  void Add(int job) {
    absl::MutexLock lock(&mutex_);
    sum_ += job;
    ++count_;
  }
  void Read(int& sum, int& count) {
    absl::ReaderMutexLock lock(&mutex_);
    sum = sum_;
    count = count_;
  }

 private:
  absl::Mutex mutex_;
  int sum_ ABSL_GUARDED_BY(mutex_) = 0;
  int count_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace

int main() {
  BoundedJobQueue queue;
  Tally tally;
  absl::Notification start;
  absl::BlockingCounter threads_done(3);

  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    start.WaitForNotification();
    for (int job = 1; job <= kJobs; ++job) queue.Push(job);
    queue.Close();
    threads_done.DecrementCount();
  });
  for (int consumer = 0; consumer < 2; ++consumer) {
    threads.emplace_back([&] {
      start.WaitForNotification();
      int job;
      while (queue.Pop(job)) tally.Add(job);
      threads_done.DecrementCount();
    });
  }
  start.Notify();
  threads_done.Wait();

  int sum, count;
  tally.Read(sum, count);
  for (auto& thread : threads) thread.join();
  if (sum != kJobs * (kJobs + 1) / 2 || count != kJobs) {
    std::fprintf(stderr, "consumed %d jobs adding up to %d\n", count, sum);
    return 1;
  }
  if (queue.most_held() > kCapacity) {
    std::fprintf(stderr, "the queue held %zu jobs\n", queue.most_held());
    return 1;
  }
  return 0;
}
