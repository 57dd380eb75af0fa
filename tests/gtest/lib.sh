# lib.sh: helpers for the SIM_TEST scripts (sourced). ctest sets PASSING and
# FAILING (the two test binaries) and TEST_TMP (a fresh directory per test).
source "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
unset SIM_OPTIONS GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX

rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
