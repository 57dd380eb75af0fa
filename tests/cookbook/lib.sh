# lib.sh: helpers for the cookbook scripts (sourced). ctest sets TEST_TMP (a
# fresh directory per test); the scripts take the binary and its flags as
# arguments.
source "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
unset SIM_OPTIONS GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX

rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
