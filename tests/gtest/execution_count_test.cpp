// Says once on stderr per execution of one SIM_TEST, for the scripts that
// count executions under --sim_replay (one) and --sim_seeds. Counted by its
// output, not a variable: each execution may run in a process of its own
// (isolate=fork), where a count would die with the process.
#include <cstdio>

#include "sim/gtest.h"

namespace {

SIM_TEST(Counted, Executions) { std::fputs("Counted.Executions: an execution\n", stderr); }

}  // namespace
