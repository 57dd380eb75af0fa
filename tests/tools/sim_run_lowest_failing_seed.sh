# With J > 1 the reported seed is the lowest failing one, even when a higher
# failing seed ends first; "M seeds passed first" counts the seeds below it.
source "$(dirname "$0")/lib.sh"
export STANDIN_FAIL_SEEDS="13 15" STANDIN_MODE=exit STANDIN_STATUS=1
export STANDIN_SLOW_SEEDS=13 STANDIN_SLOW_SECONDS=1
run "$SIM_BIN/sim-run" --seeds 100 --start 10 --jobs 4 -- "$STANDIN"
expect_eq "$rc" 1 "exit status"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 13 (3 seeds passed first): exit status 1" "summary"
expect_eq "$(sed -n 2p <<< "$out")" "replay: SIM_OPTIONS=seed=13 $STANDIN" "replay line"
expect_contains "$out" "WARNING: standin: exit (seed=13)" "the failing run's report follows"
expect_not_contains "$out" "seed=15" "no other seed's report"
echo PASS
