// gtest_main.cpp: main() for SIM_TEST binaries (simthread::gtest_main).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "sim/gtest.h"

namespace sim::internal {
std::uint64_t ChunksRun();  // sim_test.cpp
bool ReplayRequested();     // sim_test.cpp
}  // namespace sim::internal

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  sim::init(&argc, argv);
  const int status = RUN_ALL_TESTS();
  // A replay whose --gtest_filter selects no chunk would pass having run nothing.
  if (sim::internal::ReplayRequested() && sim::internal::ChunksRun() == 0 && !GTEST_FLAG_GET(list_tests)) {
    std::fputs(
        "simthread: --sim_replay/--sim_schedule ran no SIM_TEST: --gtest_filter selects no chunk test "
        "(the chunk names depend on --sim_seeds, --sim_first_seed and --sim_chunk)\n",
        stderr);
    return 1;
  }
  return status;
}
