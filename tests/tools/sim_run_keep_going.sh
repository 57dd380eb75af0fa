# --keep-going runs every seed; the summary names the lowest failing seed and
# lists all failures.
source "$(dirname "$0")/lib.sh"
export STANDIN_LOG="$TEST_TMP/log" STANDIN_FAIL_SEEDS="5 2 17" STANDIN_MODE=exit
run "$SIM_BIN/sim-run" --seeds 20 --jobs 3 --keep-going --report-json "$TEST_TMP/r.json" -- "$STANDIN"
expect_eq "$rc" 1 "exit status"
expect_eq "$(wc -l < "$STANDIN_LOG")" 20 "every seed ran"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 2 (2 seeds passed first): exit status 1" "summary"
expect_eq "$(tail -n 4 <<< "$out")" "sim-run: 3 of 20 seeds failed: 2 (exit status 1), 5 (exit status 1), 17 (exit status 1)
sim-run: 1 distinct failure:
  exit status 1 (3 seeds, the first 2)
    replay: SIM_OPTIONS=seed=2 $STANDIN" "failure list, and each distinct failure once"
# Each distinct failure is said on stderr as it is found (with --jobs 3, not
# always at its lowest seed).
expect_matches "$err" "^sim-run: seed (2|5|17) failed: exit status 1 \\(new; replay: SIM_OPTIONS=seed=(2|5|17) $STANDIN\\)$" "said as found"
expect_eq "$(json_field "$TEST_TMP/r.json" "j['seeds_run'], j['failure']['seed']")" "(20, 2)" "report"
# Without it, seeds after the failure do not run.
rm -f "$STANDIN_LOG"
run "$SIM_BIN/sim-run" --seeds 20 --jobs 1 -- "$STANDIN"
expect_eq "$(wc -l < "$STANDIN_LOG")" 3 "stops at the first failure"
echo PASS
