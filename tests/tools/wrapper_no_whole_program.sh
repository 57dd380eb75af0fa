# -fno-sim-whole-program links the runtime without whole-program mode (for a
# program that calls sim::explore itself), and such a program builds and runs.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --showme -fno-sim-whole-program foo.cpp -o foo
expect_contains "$out" "-Wl,--whole-archive $SIM_LIB/libsimrt.a -Wl,--no-whole-archive" "runtime only"
expect_not_contains "$out" "libsim_whole_program.a" "no whole-program mode"
expect_not_contains "$out" "sim-whole-program" "the wrapper's flag is not passed to clang"
cat > "$TEST_TMP/explore.cpp" <<'CPP'
#include <sim/sim.h>
#include <cstdio>
#include <thread>
int shared_value = 0;
int main() {
  auto report = sim::explore([] {
    shared_value = 0;
    std::thread t([] { shared_value = 1; });
    t.join();
    if (shared_value != 1) sim::fail("lost the write");
  }, {.seeds = 20});
  std::puts(report ? "failed" : "passed");
  return report ? 1 : 0;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -fno-sim-whole-program "$TEST_TMP/explore.cpp" -o "$TEST_TMP/explore"
expect_eq "$rc" 0 "building an explore() program: $err"
expect_eq "$err" "" "the build prints nothing"
run "$TEST_TMP/explore"
expect_eq "$rc" 0 "running it: $err"
expect_eq "$out" "passed" "its output"
echo PASS
