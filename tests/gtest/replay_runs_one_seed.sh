# --sim_replay=SEED runs exactly one execution and says how it ended even
# when it passes; a replay whose filter selects no chunk is an error.
source "$(dirname "$0")/lib.sh"
run "$PASSING" --gtest_filter='Counted.Executions/seeds_0_99' --sim_replay=7
expect_eq "$rc" 0 "exit status"
expect_eq "$(grep -c '^Counted.Executions: an execution$' <<< "$err")" 1 "one execution"
expect_contains "$err" "simthread: replayed seed 7 of Counted.Executions/seeds_0_99: pass, " "the verdict of a pass"
expect_contains "$err" ", trace hash " "the trace hash of a pass"
run "$PASSING" --gtest_filter='Counted.Executions/*' --sim_seeds=250
expect_eq "$(grep -c '^Counted.Executions: an execution$' <<< "$err")" 250 "without --sim_replay, every seed"
run "$PASSING" --gtest_filter='Counted.Executions/*' --sim_seeds=250 --sim_isolate=none
expect_eq "$(grep -c '^Counted.Executions: an execution$' <<< "$err")" 250 "in one process, every seed"
run "$PASSING" --gtest_filter='Counted.Executions/seeds_1000_1099' --sim_replay=7
expect_eq "$rc" 1 "a replay that ran nothing"
expect_contains "$err" "ran no SIM_TEST: --gtest_filter selects no chunk test" "says why"
echo PASS
