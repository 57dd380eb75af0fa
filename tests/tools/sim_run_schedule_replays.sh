# sim-run --schedule replays the schedule a failing seed printed: the same
# verdict and trace hash; --report-json carries the preemption counts.
source "$(dirname "$0")/lib.sh"
example="$SIM_EXAMPLES/abba_deadlock"
run "$SIM_BIN/sim-run" --seeds 1000 --report-json "$TEST_TMP/found.json" -- "$example"
expect_eq "$rc" 1 "sim-run finds the deadlock"
schedule="$(json_field "$TEST_TMP/found.json" "j['failure']['schedule']")"
hash="$(json_field "$TEST_TMP/found.json" "j['failure']['trace_hash']")"
[[ "$schedule" == S1-* ]] || fail "no schedule in the report: $schedule"
expect_eq "$(json_field "$TEST_TMP/found.json" "type(j['failure']['preemptions']).__name__")" "int" "preemptions is a number"
expect_eq "$(json_field "$TEST_TMP/found.json" "type(j['failure']['preemptions_before_shrink']).__name__")" "int" \
  "preemptions_before_shrink is a number"

run "$SIM_BIN/sim-run" --schedule "$schedule" --report-json "$TEST_TMP/replayed.json" -- "$example"
expect_eq "$rc" 1 "the replayed schedule fails again"
expect_contains "$out" "sim-run: failed at seed 0 (0 seeds passed first): deadlock" "one execution, the same verdict"
expect_eq "$(json_field "$TEST_TMP/replayed.json" "j['seeds_run']")" "1" "a schedule is one execution"
expect_eq "$(json_field "$TEST_TMP/replayed.json" "j['failure']['trace_hash']")" "$hash" "same trace hash"

echo "$schedule" > "$TEST_TMP/schedule.txt"
run "$SIM_BIN/sim-run" --schedule "@$TEST_TMP/schedule.txt" --report-json "$TEST_TMP/from_file.json" -- "$example"
expect_eq "$(json_field "$TEST_TMP/from_file.json" "j['failure']['trace_hash']")" "$hash" "same trace hash from @FILE"

# The replay lines of a schedule replay name the schedule, not a seed that
# picks nothing, and the file's trailing newline stays out of the quotes;
# run as printed, they give the same execution.
expect_eq "$(sed -n 2p <<< "$out")" "replay: SIM_OPTIONS=schedule=@$TEST_TMP/schedule.txt $example" "sim-run's replay line"
child_replay="$(grep -m1 '^  replay: ' <<< "$out")"
expect_eq "$child_replay" "  replay: SIM_OPTIONS=schedule=$schedule $example" "the report's replay line"
printed="${child_replay#  replay: }"
(eval "timeout -s KILL 60 env ${printed/SIM_OPTIONS=schedule=$schedule/SIM_OPTIONS=schedule=$schedule:report_json=$TEST_TMP/printed.json}") \
  > /dev/null 2>&1 || true
expect_eq "$(json_field "$TEST_TMP/printed.json" "j['trace_hash']")" "$hash" "the printed line's trace hash"

run "$SIM_BIN/sim-run" --schedule "" -- "$example"
expect_eq "$rc" 2 "an empty --schedule is a usage error"
echo PASS
