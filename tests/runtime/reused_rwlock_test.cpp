// A reader-writer lock at the address of an ended one starts fresh, with
// its own kind and unheld, as it does natively, where glibc keeps both in
// the lock's own bytes: after a local lock's frame is reused
// (std::shared_mutex has no destructor call the world could see) and after
// a heap lock's memory is freed.
#include <gtest/gtest.h>
#include <pthread.h>

#include <cerrno>
#include <chrono>
#include <thread>

#include "reused_address.h"
#include "sim/sim.h"

namespace {

using reused_address::SameAddress;


// With a writer waiting, a second read lock is refused only by a lock that
// prefers writers.
TEST(ReusedRwlock, LocalDefaultLockAfterAWriterPreferringOneInALoopLetsReadersIn) {
  auto report = sim::explore(
      [] {
        const pthread_rwlock_t prefer_writers = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
        const pthread_rwlock_t prefer_readers = PTHREAD_RWLOCK_INITIALIZER;
        SameAddress same;
        for (int i = 0; i < 2; ++i) {
          pthread_rwlock_t lock = i == 0 ? prefer_writers : prefer_readers;
          same.Expect(&lock);
          pthread_rwlock_rdlock(&lock);
          std::thread writer([&lock] {
            pthread_rwlock_wrlock(&lock);
            pthread_rwlock_unlock(&lock);
          });
          std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the writer runs until it waits
          const int again = pthread_rwlock_tryrdlock(&lock);
          if (again == 0) pthread_rwlock_unlock(&lock);
          pthread_rwlock_unlock(&lock);
          writer.join();
          if (i == 0 && again != EBUSY) sim::fail("the writer-preferring lock let a reader past a waiting writer");
          if (i == 1 && again != 0) sim::fail("the default lock kept a reader out behind a waiting writer");
        }
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ReusedRwlock, HeapLockAtTheAddressOfOneFreedWhileReadLockedIsFree) {
  // Of a size nothing else allocates, so that the allocator's free list
  // hands the freed block straight back.
  struct Guarded {
    pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
    char padding[700] = {};
  };
  auto report = sim::explore(
      [] {
        auto* first = new Guarded;
        pthread_rwlock_rdlock(&first->lock);
        SameAddress same;
        same.Expect(first);
        delete first;
        auto* second = new Guarded;
        same.Expect(second);
        std::thread other([second] {
          pthread_rwlock_wrlock(&second->lock);
          pthread_rwlock_unlock(&second->lock);
        });
        other.join();
        delete second;
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
