# passes.sh PROGRAM SEEDS: PROGRAM (a correct program using a third-party
# library, built with sim-clang++) passes natively, and under sim-run at
# every one of SEEDS seeds.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seeds="$2"
run "${program}_native"
expect_eq "$rc" 0 "native run exit status; stderr: $err"
run "$SIM_BIN/sim-run" --seeds "$seeds" --timeout 120 -- "$program"
expect_eq "$rc" 0 "sim-run exit status; output:
$out
$err"
expect_eq "$out" "sim-run: $seeds seeds passed" "summary"
echo PASS
