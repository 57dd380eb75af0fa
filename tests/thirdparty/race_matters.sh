# race_matters.sh PROGRAM SEEDS: with races=1, sim-run reports a data race in
# the buggy program PROGRAM within SEEDS seeds; the report says the race
# matters (running on past it, or flipping its two accesses, fails the
# program's own assert), and the replay line of that run fails the same way.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seeds="$2"
SIM_OPTIONS=races=1 run "$SIM_BIN/sim-run" --seeds "$seeds" --jobs 1 --timeout 120 -- "$program"
expect_eq "$rc" 1 "sim-run exit status (a seed failed); output:
$out
$err"
report="$out
$err"
expect_contains "$report" "WARNING: simthread: data race" "a data race"
matters="$(grep -E '^  (running on past the race as found|flipping the order) \(.*\).* makes the execution fail: crash: assertion failed in T[0-9]+: ' <<< "$report")"
[[ -n "$matters" ]] || fail "the report does not say the race matters:
$report"
assertion="$(sed 's/.*makes the execution fail: crash: //' <<< "$matters")"
replay_line="$(sed -n 's/^ *that run.s replay: //p' <<< "$report")"
expect_contains "$replay_line" ":races=0" "that run's replay line"
run bash -c "$replay_line"
expect_eq "$rc" 134 "that run's replay fails by its assert: $replay_line
$err"
expect_contains "$err" "$assertion" "that run's replay: the same assertion"
echo PASS
