// SIM_TEST_F: every execution gets its own fixture, constructed in the world,
// with SetUp before the body and TearDown after it.
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/gtest.h"

namespace {

int set_up_calls = 0;
int tear_down_calls = 0;

class FreshFixture : public testing::Test {
 protected:
  void SetUp() override {
    ++set_up_calls;
    events_.push_back("SetUp");
    in_world_at_set_up_ = sim::active();
  }
  void TearDown() override { ++tear_down_calls; }

  std::vector<std::string> events_;
  int counter_ = 0;
  bool in_world_at_set_up_ = false;
};

SIM_TEST_F(FreshFixture, SetUpRunsPerSeedOnAFreshFixture) {
  EXPECT_EQ(events_, std::vector<std::string>{"SetUp"});
  EXPECT_TRUE(in_world_at_set_up_);
  EXPECT_EQ(set_up_calls, tear_down_calls + 1);  // this seed's SetUp; every earlier seed's TearDown
  EXPECT_EQ(counter_, 0);
  std::mutex mutex;
  std::thread other([&] {
    std::lock_guard guard(mutex);
    ++counter_;
  });
  {
    std::lock_guard guard(mutex);
    ++counter_;
  }
  other.join();
  EXPECT_EQ(counter_, 2);
}

// TEST_F and SIM_TEST_F share a fixture (and so a suite).
TEST_F(FreshFixture, PlainTestFStillWorks) { EXPECT_FALSE(in_world_at_set_up_); }

}  // namespace
