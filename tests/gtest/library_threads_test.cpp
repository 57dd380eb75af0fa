// Threads a library starts once per process and never joins (leveldb's
// background compaction thread, liburcu's call_rcu thread, oneTBB's
// workers), modelled in a few lines: a SIM_TEST that uses them passes every
// seed, since each execution runs in a process of its own (isolate=fork).
// Run in one process, every execution after the first waits for a thread
// the first execution's world abandoned.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "sim/gtest.h"

namespace {

// As leveldb's PosixEnv::Schedule: the first call starts the thread that
// runs scheduled work from then on, for the life of the process.
class BackgroundThread {
 public:
  static BackgroundThread& Instance() {
    static BackgroundThread* const instance = new BackgroundThread;  // never destroyed, as the library's
    return *instance;
  }

  void Schedule(std::function<void()> work) {
    std::lock_guard lock(mutex_);
    if (!started_) {
      started_ = true;
      std::thread([this] { Run(); }).detach();
    }
    queue_.push_back(std::move(work));
    work_ready_.notify_one();
  }

 private:
  void Run() {
    for (;;) {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [this] { return !queue_.empty(); });
      std::function<void()> work = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      work();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<std::function<void()>> queue_;
  bool started_ = false;
};

SIM_TEST(LibraryThreads, WorkScheduledOnAThreadStartedOncePerProcessCompletes) {
  std::mutex mutex;
  std::condition_variable done_changed;
  int done = 0;
  for (int i = 0; i < 2; ++i) {
    BackgroundThread::Instance().Schedule([&] {
      std::lock_guard lock(mutex);
      ++done;
      done_changed.notify_all();
    });
  }
  std::unique_lock lock(mutex);
  done_changed.wait(lock, [&] { return done == 2; });
  EXPECT_EQ(done, 2);
}

}  // namespace
