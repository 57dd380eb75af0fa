// A mutex at the address of an ended one starts fresh, with its own kind
// and unlocked, as it does natively, where glibc keeps both in the mutex's
// own bytes: after a heap mutex's memory is freed, after a finished
// thread's stack is released, and after a local mutex's frame is reused
// (std::mutex and std::recursive_mutex have no destructor call the world
// could see).
#include <gtest/gtest.h>
#include <pthread.h>

#include <cerrno>
#include <mutex>
#include <thread>

#include "reused_address.h"
#include "sim/sim.h"

namespace {

using reused_address::SameAddress;


// Heap objects of a size nothing else allocates, so that the allocator's
// free list hands the freed block straight back.
template <typename Lock>
struct Padded {
  Lock lock;
  char padding[700] = {};
};

TEST(ReusedMutex, HeapMutexAtAFreedRecursiveMutexsAddressIsNotRecursive) {
  auto report = sim::explore(
      [] {
        std::thread other([] {});
        auto* recursive = new Padded<std::recursive_mutex>;
        recursive->lock.lock();
        recursive->lock.lock();
        recursive->lock.unlock();
        recursive->lock.unlock();
        SameAddress same;
        same.Expect(recursive);
        delete recursive;
        auto* plain = new Padded<std::mutex>;
        same.Expect(plain);
        plain->lock.lock();
        const bool relocked = plain->lock.try_lock();
        plain->lock.unlock();
        delete plain;
        other.join();
        if (relocked) sim::fail("try_lock of a std::mutex its thread holds succeeded");
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ReusedMutex, LocalErrorCheckingMutexAfterANormalOneInALoopReportsTheRelock) {
  auto report = sim::explore(
      [] {
        const pthread_mutex_t normal = PTHREAD_MUTEX_INITIALIZER;
        const pthread_mutex_t error_checking = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
        SameAddress same;
        for (int i = 0; i < 2; ++i) {
          pthread_mutex_t mutex = i == 0 ? normal : error_checking;
          same.Expect(&mutex);
          pthread_mutex_lock(&mutex);
          // A normal mutex relocked would wait for itself forever.
          if (i == 1 && pthread_mutex_lock(&mutex) != EDEADLK) sim::fail("relock did not return EDEADLK");
          pthread_mutex_unlock(&mutex);
        }
      },
      {.seeds = 5});
  EXPECT_FALSE(report.has_value()) << report->render();
}

// glibc does not mind a locked mutex's memory being freed: the lock state
// goes with the bytes.
TEST(ReusedMutex, HeapMutexAtTheAddressOfOneFreedWhileLockedIsUnlocked) {
  auto report = sim::explore(
      [] {
        auto* first = new Padded<pthread_mutex_t>{PTHREAD_MUTEX_INITIALIZER};
        pthread_mutex_lock(&first->lock);
        SameAddress same;
        same.Expect(first);
        delete first;
        auto* second = new Padded<pthread_mutex_t>{PTHREAD_MUTEX_INITIALIZER};
        same.Expect(second);
        std::thread other([second] {
          pthread_mutex_lock(&second->lock);
          pthread_mutex_unlock(&second->lock);
        });
        other.join();
        delete second;
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(ReusedMutex, MutexLockedOnTheStackOfAFinishedThreadIsUnlockedInTheNext) {
  auto report = sim::explore(
      [] {
        SameAddress same;
        for (int i = 0; i < 2; ++i) {
          std::thread thread([&same] {
            pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
            same.Expect(&mutex);
            pthread_mutex_lock(&mutex);  // and the thread ends holding it
          });
          thread.join();
        }
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace
