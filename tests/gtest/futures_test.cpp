// The thread pool of std::packaged_tasks and std::async in a loop (whose
// futures set their values through std::once_flags at reused addresses) as
// SIM_TESTs: they pass every seed, as their whole programs do under sim-run
// (tests/programs/).
#include "../programs/async_in_a_loop.h"
#include "../programs/packaged_task_pool.h"
#include "sim/gtest.h"

namespace {

SIM_TEST(Futures, ThreadPoolOfPackagedTasks) {
  EXPECT_EQ(packaged_task_pool::SumOfSquares(), packaged_task_pool::kExpectedSum);
}

SIM_TEST(Futures, AsyncInALoop) { EXPECT_EQ(async_in_a_loop::SumOfResults(), async_in_a_loop::kExpectedSum); }

}  // namespace
