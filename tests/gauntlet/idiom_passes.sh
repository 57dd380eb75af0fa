# idiom_passes.sh PROGRAM IDIOM SEEDS: the gauntlet's whole program passes
# natively and every one of SEEDS seeds under sim-run for IDIOM, with the
# race detector on (the default): no false alarm. SIM_OPTIONS (the
# tls_switch mode) reaches every seed. ctest sets SIM_BIN and TEST_TMP.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
idiom="$2"
seeds="$3"
run env -u SIM_OPTIONS "$program" "$idiom"
expect_eq "$rc" 0 "native run exit status; stderr: $err"
run "$SIM_BIN/sim-run" --seeds "$seeds" --timeout 120 -- "$program" "$idiom"
expect_eq "$rc" 0 "sim-run exit status; output:
$out
$err"
expect_eq "$out" "sim-run: $seeds seeds passed" "summary"
echo PASS
