# A SIM_TEST built with the pass finds a race on a plain int (only memory
# accesses separate the two increments) and does not say it is uninstrumented.
source "$(dirname "$0")/lib.sh"
run "$INSTRUMENTED" --gtest_filter=Instrumented.*
[[ "$rc" -ne 0 ]] || fail "the lost update was not found: $out"
expect_contains "$out" "an increment was lost" "the EXPECT's message"
expect_contains "$out" "WARNING: simthread: failure (seed=" "the report"
expect_not_contains "$err" "not built with sim-clang++" "no uninstrumented warning"
echo PASS
