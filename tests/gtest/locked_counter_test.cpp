// A SIM_TEST whose body is correct under every interleaving passes every
// seed; a plain TEST shares its suite.
#include <mutex>
#include <thread>

#include "sim/gtest.h"

namespace {

SIM_TEST(LockedCounter, TwoThreadsIncrementUnderAMutex) {
  std::mutex mutex;
  int counter = 0;
  auto increment = [&] {
    for (int i = 0; i < 3; ++i) {
      std::lock_guard guard(mutex);
      ++counter;
    }
  };
  std::thread first(increment);
  std::thread second(increment);
  first.join();
  second.join();
  EXPECT_EQ(counter, 6);
}

TEST(LockedCounter, APlainTestInTheSameSuite) { EXPECT_FALSE(sim::active()); }

SIM_TEST(LockedCounter, BodyRunsInAWorld) { EXPECT_TRUE(sim::active()); }

}  // namespace
