# The replay line sim-run prints for a buggy example, run as printed,
# reproduces the failure: the same ending and the same trace hash.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/example_verdicts.sh"
example="$1"
run "$SIM_BIN/sim-run" --seeds 1000 --timeout 60 --report-json "$TEST_TMP/r.json" -- "$SIM_EXAMPLES/$example"
expect_eq "$rc" 1 "sim-run exit status"
seed="$(json_field "$TEST_TMP/r.json" "j['failure']['seed']")"
hash="$(json_field "$TEST_TMP/r.json" "j['failure']['trace_hash']")"
[[ "$hash" =~ ^[0-9a-f]{16}$ ]] || fail "trace hash '$hash' from sim-run's report"
replay="$(sed -n 2p <<< "$out")"
replay="${replay#replay: }"

# Exactly as printed: the same ending, and the report shows the same hash.
(eval "$replay") > /dev/null 2> "$TEST_TMP/replay.stderr.raw"
status=$?
# bash's own job-status line ("... Aborted   <command>") is not the program's.
grep -v "^$0: line [0-9]*: [0-9]* " "$TEST_TMP/replay.stderr.raw" > "$TEST_TMP/replay.stderr" || true
case "$(expected_verdict "$example")" in
  "failure") expect_eq "$status" 1 "replayed exit status (main's own)" ;;
  "deadlock"|"data race") expect_eq "$status" 66 "replayed exit status" ;;
  "crash (SIGABRT)") expect_eq "$status" $((128 + 6)) "replayed exit status (SIGABRT)" ;;
esac
# The replayed run prints what the failing run printed: its report.
expect_eq "$(cat "$TEST_TMP/replay.stderr")" "$(tail -n +3 <<< "$out")" "replayed stderr"
expect_contains "$(cat "$TEST_TMP/replay.stderr")" "$hash" "replayed report shows the trace hash"

# And with a report file added to the printed SIM_OPTIONS: the same hash, 3 times.
for attempt in 1 2 3; do
  rm -f "$TEST_TMP/replay.json"
  (eval "timeout -s KILL 60 env ${replay/SIM_OPTIONS=seed=$seed/SIM_OPTIONS=seed=$seed:report_json=$TEST_TMP/replay.json}") > /dev/null 2>&1
  expect_eq "$(json_field "$TEST_TMP/replay.json" "j['trace_hash']")" "$hash" "replay $attempt trace hash"
  expect_eq "$(json_field "$TEST_TMP/replay.json" "j['seed']")" "$seed" "replay $attempt seed"
done
# The schedule round trip: the printed schedule, replayed without the
# strategy, gives the same execution.
schedule="$(json_field "$TEST_TMP/r.json" "j['failure']['schedule']")"
if [[ -n "$schedule" ]]; then
  run "$SIM_BIN/sim-run" --schedule "$schedule" --report-json "$TEST_TMP/schedule.json" -- "$SIM_EXAMPLES/$example"
  expect_eq "$rc" 1 "the schedule fails again"
  expect_eq "$(json_field "$TEST_TMP/schedule.json" "j['failure']['trace_hash']")" "$hash" "schedule round trip trace hash"
fi
echo "seed $seed replays with trace hash $hash"
echo PASS
