# A whole program runs one execution per process, so strategy=dfs:P, which
# moves from one schedule to the next between executions of one process,
# would only ever run its first schedule: it is refused, naming where a
# bounded search does run.
source "$(dirname "$0")/lib.sh"
SIM_OPTIONS=strategy=dfs:1:seed=0 run "$SIM_EXAMPLES/lazy_registry"
expect_eq "$rc" 2 "dfs in whole-program mode"
expect_contains "$err" "SIM_OPTIONS: strategy=dfs:1 runs its schedules one after another in one process, and whole-program mode runs one execution per process, so it would only ever run the first; run the bounded search with explore() or SIM_TEST" "dfs in whole-program mode"
# The strategies that decide each execution from its seed alone still run.
SIM_OPTIONS=strategy=pos:seed=0 run "$SIM_EXAMPLES/correct_counter"
expect_eq "$rc" 0 "pos in whole-program mode: $err"
echo PASS
