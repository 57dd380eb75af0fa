# sim_test_passes.sh PROGRAM SEEDS: the SIM_TEST binary PROGRAM (built with
# sim-clang++ --sim-gtest) passes SEEDS seeds of every SIM_TEST.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seeds="$2"
run "$program" --sim_seeds="$seeds"
expect_eq "$rc" 0 "exit status; output:
$out
$err"
expect_contains "$out" "[  PASSED  ]" "gtest summary"
expect_not_contains "$out" "[  FAILED  ]" "gtest summary"
echo PASS
