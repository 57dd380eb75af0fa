# A child that outlives --timeout is killed with its process group and
# reported as a hang with its seed; sim-run does not wait for it.
source "$(dirname "$0")/lib.sh"
start=$(date +%s)
run env STANDIN_FAIL_SEEDS=3 STANDIN_MODE=hang STANDIN_HANG_SECONDS=987 "$SIM_BIN/sim-run" --seeds 10 --jobs 2 --timeout 0.5 --report-json "$TEST_TMP/r.json" -- "$STANDIN"
elapsed=$(( $(date +%s) - start ))
expect_eq "$rc" 1 "exit status"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 3 (3 seeds passed first): hang (killed after 0.5 s)" "summary"
(( elapsed < 10 )) || fail "took ${elapsed}s"
expect_eq "$(json_field "$TEST_TMP/r.json" "j['failure']['kind']")" "hang" "kind"
expect_eq "$(json_field "$TEST_TMP/r.json" "j['failure']['seed']")" "3" "seed"
sleep 0.2
pgrep -f "sleep 987" >/dev/null && { pgrep -af "sleep 987"; fail "the hanging child's group was not killed"; }
echo PASS
