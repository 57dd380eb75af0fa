# idiom_explored.sh PROGRAM IDIOM SEEDS: the idiom passes every one of SEEDS
# seeds under sim::explore (gauntlet_explore.cpp) with the race detector on
# (the default): no false alarm. SIM_OPTIONS (the tls_switch mode) reaches
# explore's options. ctest sets TEST_TMP.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
run "$1" "$2" "$3"
expect_eq "$rc" 0 "explore's exit status; output:
$out
$err"
expect_eq "$(tail -n 1 <<< "$out")" "explore: $3 seeds passed" "summary"
echo PASS
