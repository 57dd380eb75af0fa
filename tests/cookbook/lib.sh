# lib.sh: helpers for the cookbook scripts (sourced). ctest sets TEST_TMP (a
# fresh directory per test); the scripts take the binary and its flags as
# arguments.
set -uo pipefail
unset SIM_OPTIONS GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX

fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

expect_contains() {  # haystack needle what
  [[ "$1" == *"$2"* ]] || fail "$3: expected to contain [$2] in:
$1"
}

expect_not_contains() {  # haystack needle what
  [[ "$1" != *"$2"* ]] || fail "$3: expected not to contain [$2] in:
$1"
}

# run CMD...: sets $out (stdout), $err (stderr), $rc.
run() {
  "$@" > "$TEST_TMP/stdout" 2> "$TEST_TMP/stderr"
  rc=$?
  out="$(cat "$TEST_TMP/stdout")"
  err="$(cat "$TEST_TMP/stderr")"
}

rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
