// packaged_task_pool.h: a thread pool of 4 workers runs 50
// std::packaged_tasks and hands back a std::future for each, which the caller
// collects while it submits more (at most 8 outstanding): every future's
// shared state sets its value through a std::once_flag of its own, at
// addresses the heap reuses as results are collected. Shared by the whole
// program (packaged_task_pool.cpp, under sim-run) and its SIM_TEST
// (tests/gtest/futures_test.cpp).
#ifndef SIM_TESTS_PROGRAMS_PACKAGED_TASK_POOL_H_
#define SIM_TESTS_PROGRAMS_PACKAGED_TASK_POOL_H_

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace packaged_task_pool {

class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (auto& thread : threads_) thread.join();
  }

  std::future<int> Submit(int value) {
    std::packaged_task<int()> task([value] { return value * value; });
    std::future<int> result = task.get_future();
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    ready_.notify_one();
    return result;
  }

 private:
  void Work() {
    for (;;) {
      std::packaged_task<int()> task;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::packaged_task<int()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

constexpr int kTasks = 50;
constexpr long kExpectedSum = static_cast<long>(kTasks) * (kTasks + 1) * (2 * kTasks + 1) / 6;

// The sum of i*i for i in [1, kTasks], each square computed by the pool.
inline long SumOfSquares() {
  long sum = 0;
  {
    Pool pool(4);
    std::deque<std::future<int>> outstanding;
    for (int i = 1; i <= kTasks; ++i) {
      if (outstanding.size() == 8) {
        sum += outstanding.front().get();
        outstanding.pop_front();
      }
      outstanding.push_back(pool.Submit(i));
    }
    for (auto& result : outstanding) sum += result.get();
  }
  return sum;
}

}  // namespace packaged_task_pool

#endif  // SIM_TESTS_PROGRAMS_PACKAGED_TASK_POOL_H_
