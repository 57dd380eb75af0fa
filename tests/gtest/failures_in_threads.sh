# EXPECT in a simulated thread fails the seed and the execution runs on;
# ASSERT in a simulated thread ends the execution at once.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='Failing.ExpectInAThread/*'
[[ "$rc" -ne 0 ]] || fail "EXPECT in a thread passed"
expect_contains "$out" "failing_tests.cpp:17 (in T1): Expected equality of these values:" "the worker's EXPECT, in T1"
expect_contains "$out" "  in the worker" "its message"
expect_contains "$out" "failing_tests.cpp:19 (in T0): Value of: false" "the later EXPECT in T0 ran too"
expect_contains "$out" "SUMMARY: simthread: failure: failing_tests.cpp:17 (in T1): Expected equality of these values:" "summary: the first failure"
run "$FAILING" --gtest_filter='Failing.AssertInAThreadEndsTheExecution/*'
[[ "$rc" -ne 0 ]] || fail "ASSERT in a thread passed"
expect_contains "$out" "failing_tests.cpp:24 (in T1): Value of: false" "the worker's ASSERT, in T1"
expect_contains "$out" "T1 running" "T1 ended the execution"
expect_not_contains "$out" "not reached" "nothing ran after the ASSERT"
expect_eq "$(grep -c '^WARNING: simthread' <<<"$out")" 1 "reported once"
echo PASS
