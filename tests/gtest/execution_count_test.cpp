// Counts executions of one SIM_TEST and prints the count on stderr at exit,
// for the scripts that check --sim_replay (one execution) and --sim_seeds.
#include <cstdio>

#include "sim/gtest.h"

namespace {

int executions = 0;

class PrintExecutions : public testing::Environment {
 public:
  void TearDown() override { std::fprintf(stderr, "Counted.Executions ran %d executions\n", executions); }
};
testing::Environment* const print_executions = testing::AddGlobalTestEnvironment(new PrintExecutions);

SIM_TEST(Counted, Executions) { ++executions; }

}  // namespace
