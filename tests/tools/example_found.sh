# A buggy example is found within 1,000 seeds: exit 1, the first failing seed
# and its verdict, the replay line, the run's report.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/example_verdicts.sh"
example="$1"
run "$SIM_BIN/sim-run" --seeds 1000 --timeout 60 --report-json "$TEST_TMP/r.json" -- "$SIM_EXAMPLES/$example"
expect_eq "$rc" 1 "sim-run exit status (output: $out $err)"
seed="$(json_field "$TEST_TMP/r.json" "j['failure']['seed']")"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed $seed ($seed seeds passed first): $(expected_verdict "$example")" "summary"
# Options given in SIM_OPTIONS (the other tls_switch, say) come first.
expect_eq "$(sed -n 2p <<< "$out")" "replay: SIM_OPTIONS=${SIM_OPTIONS:+$SIM_OPTIONS:}seed=$seed $SIM_EXAMPLES/$example" \
  "replay line"
expect_contains "$out" "seed=$seed" "the run's report names the seed"
echo "found at seed $seed"
echo PASS
