# race_beside_errno.sh PROGRAM racy|half_fixed|fixed SEEDS: the three ways of
# errno_beside_global.cpp under sim-run. The racy and half-fixed programs
# are reported as a data race on the counter (its line, not errno's), and
# the printed replay line reports it again; the fixed one passes SEEDS seeds.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
how="$2"
seeds="$3"
source_file="$(dirname "$0")/errno_beside_global.cpp"
run "$SIM_BIN/sim-run" --seeds "$seeds" --timeout 120 -- "$program"
if [[ "$how" == fixed ]]; then
  expect_eq "$rc" 0 "sim-run exit status; output:
$out
$err"
  expect_eq "$out" "sim-run: $seeds seeds passed" "summary"
  echo PASS
  exit 0
fi
expect_eq "$rc" 1 "sim-run exit status (output: $out $err)"
expect_matches "$(sed -n 1p <<< "$out")" "^sim-run: failed at seed [0-9]+ \\([0-9]+ seeds passed first\\): data race$" "summary"
# The unlocked increment's line: the race is on the counter, never on errno.
unlocked_line="$(grep -n '^    ++parsed_count;$' "$source_file" | tail -1 | cut -d: -f1)"
summary="$(grep '^SUMMARY: simthread: data race:' <<< "$out$err")"
# The SUMMARY names whichever access came second (in the half-fixed program
# the locked one may); the report names the unlocked one either way.
expect_matches "$summary" "errno_beside_global.cpp:[0-9]+$" "SUMMARY names a counter access"
expect_contains "$(grep '#0 ' <<< "$out$err")" "errno_beside_global.cpp:$unlocked_line" "the report names the unlocked increment"
expect_contains "$out$err" "Location is global 'parsed_count'" "the race is on the counter"
replay="$(sed -n 2p <<< "$out")"
replay="${replay#replay: }"
(eval "$replay") > /dev/null 2> "$TEST_TMP/replay.stderr"
expect_eq "$?" 66 "replayed exit status"
expect_eq "$(grep '^SUMMARY:' "$TEST_TMP/replay.stderr")" "$summary" "replayed SUMMARY"
echo PASS
