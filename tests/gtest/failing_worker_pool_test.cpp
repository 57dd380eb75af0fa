// A data race in work run by a pool of threads a library starts once per
// process (as oneTBB's workers): the calling thread takes part, so the work
// completes even with no worker, and the race needs a worker to show.
// Found at a later seed than the first, where the pool's workers exist again
// because each execution runs in a process of its own (isolate=fork); run in
// one process, every execution after the first runs the work on the caller
// alone and passes in silence. library_pool_race_found_in_a_later_seed.sh
// checks both.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "sim/gtest.h"

namespace {

class WorkerPool {
 public:
  static WorkerPool& Instance() {
    static WorkerPool* const instance = new WorkerPool;  // never destroyed, as the library's
    return *instance;
  }

  // Runs every task, on the workers and the caller, and returns when all ran.
  void RunAll(std::vector<std::function<void()>> tasks) {
    {
      std::lock_guard lock(mutex_);
      if (!started_) {
        started_ = true;
        for (int i = 0; i < 2; ++i) std::thread([this] { Work(); }).detach();
      }
      for (auto& task : tasks) queue_.push_back(std::move(task));
      unfinished_ += static_cast<int>(tasks.size());
      changed_.notify_all();
    }
    while (RunOne()) {
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return unfinished_ == 0; });
  }

 private:
  bool RunOne() {
    std::unique_lock lock(mutex_);
    if (queue_.empty()) return false;
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    lock.lock();
    if (--unfinished_ == 0) changed_.notify_all();
    return true;
  }

  void Work() {
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !queue_.empty(); });
      }
      RunOne();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  int unfinished_ = 0;
  bool started_ = false;
};

SIM_TEST(WorkerPool, TwoTasksIncrementAPlainCounter) {
  int counter = 0;  // the bug: two tasks may run at once, on two threads
  std::vector<std::function<void()>> tasks;
  for (int i = 0; i < 2; ++i) {
    tasks.push_back([&counter] {
      const int seen = counter;
      counter = seen + 1;
    });
  }
  WorkerPool::Instance().RunAll(std::move(tasks));
  EXPECT_EQ(counter, 2);
}

}  // namespace
