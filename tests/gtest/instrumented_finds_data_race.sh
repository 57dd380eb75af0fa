# A SIM_TEST built with the pass finds a race on a plain int (only memory
# accesses separate the two increments) and does not say it is uninstrumented:
# by default as a data race, which the report says makes the execution fail;
# with races=0 as the lost update its EXPECT catches.
source "$(dirname "$0")/lib.sh"
run "$INSTRUMENTED" --gtest_filter=Instrumented.*
[[ "$rc" -ne 0 ]] || fail "the race was not found: $out"
expect_contains "$out" "WARNING: simthread: data race (seed=" "the report"
expect_contains "$out" "makes the execution fail: failure: instrumented_tests.cpp:" "the race matters"
expect_not_contains "$err" "not built with sim-clang++" "no uninstrumented warning"
run "$INSTRUMENTED" --gtest_filter=Instrumented.* --sim_races=0
[[ "$rc" -ne 0 ]] || fail "the lost update was not found: $out"
expect_contains "$out" "an increment was lost" "the EXPECT's message"
expect_contains "$out" "WARNING: simthread: failure (seed=" "the report"
echo PASS
