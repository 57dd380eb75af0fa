# A crash inside libc (glibc aborting on a double free, its heap's lock
# possibly held) used to be reported as found with a short report: no
# preemption count, no schedule, never shrunk, and a bounded search could
# not see it (its schedule process died without answering: called a hang).
# The runtime now allocates from a heap of its own, so a process whose libc
# heap is broken can still answer: sim-run's seed is shrunk to the one
# preemption the double free needs, dfs:1 finds it, and every replay line
# and schedule reproduces the crash with the trace hash it reports.
source "$(dirname "$0")/lib.sh"
program="$SIM_BIN/examples/refcount_double_delete"
# The count's unlocked decrements are a data race, which the detector
# reports first (with no preemption); this test is about the crash in libc
# that follows, so the detector is off, and every replay line carries it.
export SIM_OPTIONS="${SIM_OPTIONS:+$SIM_OPTIONS:}races=0"

trace_hash_of() { grep -o 'trace hash: [0-9a-f]*' <<< "$1" | head -1; }
replays_with_hash() {  # COMMAND HASH WHAT: the command dies by SIGABRT with that trace hash
  (cd "$TEST_TMP" && eval "$1") > "$TEST_TMP/replay.out" 2>&1
  local status=$?
  expect_eq "$status" 134 "$3: exit status (SIGABRT): $(cat "$TEST_TMP/replay.out")"
  expect_contains "$(cat "$TEST_TMP/replay.out")" "$2" "$3: the same trace hash"
}

run "$SIM_BIN/sim-run" --seeds 100 --jobs 1 -- "$program"
expect_eq "$rc" 1 "sim-run finds the double free: $out $err"
report="$out
$err"
expect_contains "$report" "SIGABRT inside libc" "the crash is inside libc"
expect_contains "$report" "preemptions: 1 (shrunk from" "shrunk to the one preemption it needs"
schedule="$(sed -n 's/^ *schedule: //p' <<< "$report" | head -1)"
[[ -n "$schedule" ]] || fail "the report shows the shrunk schedule: $report"
shrunk_hash="$(trace_hash_of "$report")"
replays_with_hash "SIM_OPTIONS=schedule=$schedule:races=0 '$program'" "$shrunk_hash" "the shrunk schedule"
replay_line="$(sed -n 's/^ *replay: //p' <<< "$report" | head -1)"
expect_contains "$replay_line" "seed=" "the replay line names the seed"
(cd "$TEST_TMP" && eval "$replay_line") > "$TEST_TMP/seed.out" 2>&1
expect_eq "$?" 134 "the seed's replay line crashes again: $(cat "$TEST_TMP/seed.out")"
expect_contains "$(cat "$TEST_TMP/seed.out")" "preemptions: 1 (shrunk from" "and is shrunk again the same way"

run "$SIM_BIN/sim-run" --strategy dfs:1 --seeds 1000 -- "$program"
expect_eq "$rc" 1 "dfs:1 finds the double free: $out $err"
expect_contains "$out" "dfs:1: failed in schedule" "as a failure of one schedule: $out"
expect_not_contains "$out$err" "did not end within" "not as a hang"
dfs_report="$out
$err"
expect_contains "$dfs_report" "preemptions: 1" "at its minimum"
replays_with_hash "$(sed -n 's/^ *replay: //p' <<< "$dfs_report" | head -1)" "$(trace_hash_of "$dfs_report")" \
  "dfs:1's replay line"

run "$SIM_BIN/sim-run" --strategy dfs:0 --seeds 1000 -- "$program"
expect_eq "$rc" 0 "no schedule without a preemption frees twice: $out $err"
echo PASS
