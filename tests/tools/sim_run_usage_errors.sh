# Every usage error exits 2 with a message that names the problem.
source "$(dirname "$0")/lib.sh"
check() {  # expected-message args...
  local expected="$1"; shift
  run "$SIM_BIN/sim-run" "$@"
  expect_eq "$rc" 2 "exit status of sim-run $*"
  expect_eq "$(head -n 1 <<< "$err")" "sim-run: $expected" "message of sim-run $*"
  expect_contains "$err" "usage: sim-run" "usage after sim-run $*"
  expect_eq "$out" "" "stdout of sim-run $*"
}
check "unknown flag '--frobnicate'" --frobnicate -- "$STANDIN"
check "unknown flag '-x'" -x -- "$STANDIN"
check "bad number for --seeds: 'ten' (expected a whole number >= 1)" --seeds ten -- "$STANDIN"
check "bad number for --seeds: '0' (must be >= 1)" --seeds 0 -- "$STANDIN"
check "bad number for --seeds: '-5' (expected a whole number >= 1)" --seeds=-5 -- "$STANDIN"
check "bad number for --start: '1x' (expected a whole number >= 0)" --start 1x -- "$STANDIN"
check "bad number for --start: '99999999999999999999' (expected a whole number >= 0)" --start 99999999999999999999 -- "$STANDIN"
check "bad number for --jobs: '0' (must be >= 1)" --jobs 0 -- "$STANDIN"
check "bad number for --timeout: 'soon' (expected seconds > 0, e.g. 10 or 0.5)" --timeout soon -- "$STANDIN"
check "bad number for --timeout: '0' (expected seconds > 0, e.g. 10 or 0.5)" --timeout 0 -- "$STANDIN"
check "--seeds needs a value" --seeds
check "--strategy needs a value: random | pct:D | pos | portfolio[:S,S,...] | replay:<schedule> | dfs:P" --strategy= -- "$STANDIN"
check "--report-json needs a path" --report-json= -- "$STANDIN"
check "missing program: give it after '--', e.g. sim-run --seeds 1000 -- ./prog"
check "missing program: give it after '--', e.g. sim-run --seeds 1000 -- ./prog" --seeds 10 --
check "program ./no-such-program not found" -- ./no-such-program
check "program no-such-program-anywhere not found in PATH (for a file in this directory, write ./no-such-program-anywhere)" -- no-such-program-anywhere
printf '#!/bin/sh\nexit 0\n' > "$TEST_TMP/not-executable"
chmod -x "$TEST_TMP/not-executable"
check "program $TEST_TMP/not-executable is not executable (chmod +x, or build it with sim-clang++)" -- "$TEST_TMP/not-executable"
check "program $TEST_TMP is a directory" -- "$TEST_TMP"
check "--start + --seeds overflows a 64-bit seed" --start 18446744073709551615 --seeds 2 -- "$STANDIN"
# --help is not an error.
run "$SIM_BIN/sim-run" --help
expect_eq "$rc" 0 "--help exit status"
expect_contains "$out" "usage: sim-run" "--help prints usage"
echo PASS
