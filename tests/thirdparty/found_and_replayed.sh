# found_and_replayed.sh PROGRAM SEEDS: the buggy program PROGRAM (a bug users
# really write around a third-party library) fails under sim-run within
# SEEDS seeds; the failure is shrunk, and the printed replay line fails again
# with the same report (verdict, preemptions, schedule, trace hash) on three
# consecutive replays. The failure looked for is the program's own check,
# with the race detector off (sim-run carries races=0 into the replay line):
# a twin whose bug is a data race has race_matters.sh for the race.
source "$(dirname "$0")/../lib/assert.sh"
export SIM_OPTIONS="${SIM_OPTIONS:+$SIM_OPTIONS:}races=0"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seeds="$2"
run "$SIM_BIN/sim-run" --seeds "$seeds" --jobs 1 --timeout 120 -- "$program"
expect_eq "$rc" 1 "sim-run exit status (a seed failed); output:
$out
$err"
report="$out
$err"
expect_contains "$report" "shrunk from" "the report of a shrunk failure"
replay_line="$(sed -n 's/^ *replay: //p' <<< "$report" | head -1)"
expect_contains "$replay_line" "SIM_OPTIONS=" "the report's replay line"
hash="$(grep -o 'trace hash: [0-9a-f]*' <<< "$report" | head -1)"
[[ -n "$hash" ]] || fail "no trace hash in the report:
$report"
summary_of() {  # the lines of a report that must repeat exactly
  grep -E 'trace hash|preemptions|schedule' <<< "$1"
}
expected="$(summary_of "$report")"
for attempt in 1 2 3; do
  run bash -c "$replay_line"
  [[ "$rc" != 0 ]] || fail "replay $attempt passed: $replay_line
$err"
  expect_contains "$out
$err" "$hash" "replay $attempt: the same trace hash"
  expect_eq "$(summary_of "$out
$err")" "$expected" "replay $attempt: the same report"
done
echo PASS
