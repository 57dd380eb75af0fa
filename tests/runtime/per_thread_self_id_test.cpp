// pthread_self() and std::this_thread::get_id() are distinct per simulated
// thread and equal to what std::thread::get_id() / native_handle() returned.
#include <gtest/gtest.h>
#include <pthread.h>

#include <thread>

#include "sim/sim.h"

TEST(PerThreadSelfId, IdsAreDistinctAndAgree) {
  auto report = sim::explore(
      [] {
        std::thread::id seen_id[2];
        pthread_t seen_self[2];
        auto record = [&](int index) {
          std::this_thread::yield();
          seen_id[index] = std::this_thread::get_id();
          seen_self[index] = pthread_self();
        };
        std::thread a(record, 0);
        std::thread b(record, 1);
        const std::thread::id a_id = a.get_id(), b_id = b.get_id();
        const pthread_t a_handle = a.native_handle(), b_handle = b.native_handle();
        a.join();
        b.join();
        if (seen_id[0] != a_id || seen_id[1] != b_id) sim::fail("this_thread::get_id differs from thread::get_id");
        if (!pthread_equal(seen_self[0], a_handle) || !pthread_equal(seen_self[1], b_handle)) {
          sim::fail("pthread_self differs from native_handle");
        }
        if (a_id == b_id || std::this_thread::get_id() == a_id || std::this_thread::get_id() == b_id) {
          sim::fail("two threads share an id");
        }
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}
