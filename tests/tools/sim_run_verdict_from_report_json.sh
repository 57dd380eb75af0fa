# Exit status 66 means a runtime-detected verdict, read from the child's
# report_json; the child's stderr (its report) is printed after the summary.
source "$(dirname "$0")/lib.sh"
export STANDIN_FAIL_SEEDS=4 STANDIN_MODE=verdict66 STANDIN_VERDICT=deadlock
run "$SIM_BIN/sim-run" --seeds 10 --jobs 1 -- "$STANDIN"
expect_eq "$rc" 1 "exit status"
expect_eq "$out" "sim-run: failed at seed 4 (4 seeds passed first): deadlock
replay: SIM_OPTIONS=seed=4 $STANDIN
==================
WARNING: standin: verdict66 (seed=4)
  replay: SIM_OPTIONS=seed=4 standin
==================" "output"
echo PASS
