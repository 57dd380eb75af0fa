// pthread key values are per simulated thread, and their destructors run at
// thread exit.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <thread>

#include "sim/sim.h"

namespace {
// Atomic: two threads' destructors add to it, and built with the pass
// (tests/instrumented/) a plain += would be a lost update simthread finds.
std::atomic<int> destructed_sum = 0;
void Destroy(void* value) { destructed_sum += *static_cast<int*>(value); }

TEST(PerThreadKeyDestructor, DestructorsRunAtThreadExit) {
  pthread_key_t key;
  ASSERT_EQ(pthread_key_create(&key, Destroy), 0);
  auto report = sim::explore(
      [key] {
        destructed_sum = 0;
        int values[2] = {1, 10};
        auto use = [key](int* mine) {
          pthread_setspecific(key, mine);
          std::this_thread::yield();
          if (pthread_getspecific(key) != mine) sim::fail("key value shared between threads");
        };
        std::thread a(use, &values[0]);
        std::thread b(use, &values[1]);
        a.join();
        b.join();
        if (destructed_sum != 11) sim::fail("key destructors ran for " + std::to_string(destructed_sum.load()));
        if (pthread_getspecific(key) != nullptr) sim::fail("T0 sees another thread's key value");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
  pthread_key_delete(key);
}
}  // namespace
