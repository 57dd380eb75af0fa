// Built with the simthread pass (as sim-clang++ does): plain memory
// accesses are scheduling points, so an unlocked increment loses updates in
// some interleavings, and the binary does not warn that it is uninstrumented.
// Fails on purpose: ctest runs it only through instrumented_finds_data_race.sh.
#include <thread>

#include "sim/gtest.h"

namespace {

SIM_TEST(Instrumented, UnlockedCounterLosesAnUpdate) {
  int counter = 0;
  std::thread first([&] { ++counter; });
  std::thread second([&] { ++counter; });
  first.join();
  second.join();
  EXPECT_EQ(counter, 2) << "an increment was lost";
}

}  // namespace
