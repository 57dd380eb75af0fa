// std::shared_mutex: readers share the lock, a writer excludes everyone.
// Three readers and one writer keep an invariant (two fields always equal,
// no reader inside while the writer is); and readers do overlap in some
// interleaving, so sharing is modelled rather than serialised.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <shared_mutex>
#include <thread>

#include "sim/sim.h"

namespace {

// A scheduling point inside a critical section, so other threads can run
// there (the runtime tests are not instrumented: only intercepted calls are
// points).
void Pause() {
  static std::mutex unrelated;
  std::lock_guard guard(unrelated);
}

}  // namespace

TEST(RwlockReadersWriter, InvariantHolds) {
  auto report = sim::explore([] {
    std::shared_mutex lock;
    int a = 0;
    int b = 0;
    int readers_inside = 0;
    bool writer_inside = false;
    auto reader = [&] {
      std::shared_lock shared(lock);
      ++readers_inside;
      if (writer_inside) sim::fail("reader inside with the writer");
      Pause();
      if (a != b) sim::fail("reader saw a torn update");
      --readers_inside;
    };
    std::thread r1(reader);
    std::thread r2(reader);
    std::thread w([&] {
      std::unique_lock exclusive(lock);
      writer_inside = true;
      if (readers_inside != 0) sim::fail("writer inside with readers");
      ++a;
      Pause();
      ++b;
      writer_inside = false;
    });
    std::thread r3(reader);
    r1.join();
    r2.join();
    w.join();
    r3.join();
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(RwlockReadersWriter, ReadersOverlap) {
  auto report = sim::explore([] {
    std::shared_mutex lock;
    int readers_inside = 0;
    auto reader = [&] {
      std::shared_lock shared(lock);
      if (++readers_inside == 2) sim::fail("two readers inside");
      Pause();
      --readers_inside;
    };
    std::thread r1(reader);
    std::thread r2(reader);
    r1.join();
    r2.join();
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("two readers inside"));
}

TEST(RwlockReadersWriter, UnprotectedWriterFails) {
  auto report = sim::explore([] {
    std::shared_mutex lock;
    int a = 0;
    int b = 0;
    std::thread r([&] {
      std::shared_lock shared(lock);
      Pause();
      if (a != b) sim::fail("reader saw a torn update");
    });
    std::thread w([&] {
      // bug: the writer takes the lock for reading
      std::shared_lock shared(lock);
      ++a;
      Pause();
      ++b;
    });
    r.join();
    w.join();
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("torn update"));
}
