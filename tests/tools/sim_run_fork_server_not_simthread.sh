# A program not built with sim-clang++ (no fork-server marker in its ELF
# file) is spawned once per seed, as before, with no note: it ends as it
# always did, and status 66 without a report still names the likely cause.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-run" --seeds 3 --report-json "$TEST_TMP/r.json" -- sh -c 'exit 66'
expect_eq "$rc" 1 "exit status"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 0 (0 seeds passed first): exit status 66" "summary"
expect_eq "$(json_field "$TEST_TMP/r.json" "j['failure']['message']")" "exited with status 66 but wrote no report (was it built with sim-clang++?)" "message"
expect_eq "$err" "" "no note on stderr"
run "$SIM_BIN/sim-run" --seeds 5 -- true
expect_eq "$rc" 0 "true: exit status"
expect_eq "$out" "sim-run: 5 seeds passed" "true: summary"
expect_eq "$err" "" "true: no note on stderr"
echo PASS
