# Any other non-zero exit is "exit status N" (the program's own failure).
source "$(dirname "$0")/lib.sh"
run env STANDIN_FAIL_SEEDS=0 STANDIN_MODE=exit STANDIN_STATUS=3 "$SIM_BIN/sim-run" --seeds 5 -- "$STANDIN"
expect_eq "$rc" 1 "exit status"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 0 (0 seeds passed first): exit status 3" "summary"
# 66 without a report file is not taken for a runtime verdict.
run env STANDIN_FAIL_SEEDS=1 STANDIN_MODE=exit STANDIN_STATUS=66 "$SIM_BIN/sim-run" --seeds 5 --report-json "$TEST_TMP/r.json" -- "$STANDIN"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 1 (1 seeds passed first): exit status 66" "66 without report"
expect_eq "$(json_field "$TEST_TMP/r.json" "j['failure']['message']")" "exited with status 66 but wrote no report (was it built with sim-clang++?)" "66 without report: message"
echo PASS
