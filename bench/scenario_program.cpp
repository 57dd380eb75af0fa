// scenario_program.cpp: one execution of a bench/scenarios.h body as a whole
// program, for seeds_bench's sim-run rows (built by sim-clang++) and their
// native reference (built by clang++-19).
//
// usage: scenario_program registry|lock_loop_4x200
// Exits 0 when the body's check holds; aborts when it does not.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scenarios.h"

namespace sim_bench {
void ScenarioFailed(const char* what) {
  std::fprintf(stderr, "scenario_program: %s\n", what);
  std::abort();
}
}  // namespace sim_bench

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "registry") == 0) {
    sim_bench::RegistryScenario();
  } else if (argc == 2 && std::strcmp(argv[1], "lock_loop_4x200") == 0) {
    sim_bench::LockLoopScenario<4, 24>();
  } else {
    std::fprintf(stderr, "usage: %s registry|lock_loop_4x200\n", argv[0]);
    return 2;
  }
  return 0;
}
