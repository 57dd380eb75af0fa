// Gates outside a world: real std::threads park at a held gate, the test
// awaits them with a timeout, and a missing arrival fails with a clear
// message instead of hanging.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

TEST(GateRealThreads, HeldGateParksARealThreadUntilRelease) {
  std::atomic<bool> passed{false};
  sim::Gate gate = sim::Gate::hold("real.window");
  std::thread worker([&] {
    SIM_GATE("real.window");
    passed = true;
  });
  gate.await_arrivals(1);
  EXPECT_EQ(gate.arrivals(), 1u);
  EXPECT_FALSE(passed.load());  // parked: it cannot have passed the gate
  gate.release();
  worker.join();
  EXPECT_TRUE(passed.load());
}

TEST(GateRealThreads, MissingArrivalTimesOutWithAClearMessage) {
  sim::Gate gate = sim::Gate::hold("real.never");
  try {
    gate.await_arrivals(1, std::chrono::milliseconds(50));
    FAIL() << "await_arrivals must throw when nobody arrives";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("0 arrived"));
    EXPECT_THAT(error.what(), HasSubstr("SIM_GATE(\"real.never\")"));
  }
}

TEST(GateRealThreads, UnheldGateCostsNothingAndPasses) {
  for (int i = 0; i < 1000; ++i) SIM_GATE("nobody.holds.this");
  SUCCEED();
}

}  // namespace
