# An unknown or malformed --sim_ flag is an error (exit 2) that names it and
# the valid flags, printed on stderr only.
source "$(dirname "$0")/lib.sh"
run "$PASSING" --sim_sedes=10
expect_eq "$rc" 2 "unknown flag"
expect_eq "$out" "" "nothing on stdout"
expect_contains "$err" "unknown simthread flag '--sim_sedes'" "names the flag"
expect_contains "$err" "--sim_seeds=..." "lists the valid flags"
run "$PASSING" --sim-seeds=10
expect_eq "$rc" 2 "a dash instead of an underscore"
expect_contains "$err" "simthread flags start with --sim_" "says which prefix"
run "$PASSING" --sim_seeds=ten
expect_eq "$rc" 2 "a bad value"
expect_contains "$err" "bad flag '--sim_seeds=ten': option 'seeds' expects a whole number >= 0, got 'ten'" "names the value"
run "$PASSING" --sim_replay
expect_eq "$rc" 2 "a missing value"
SIM_OPTIONS=sedes=1 run "$PASSING"
expect_eq "$rc" 2 "an unknown SIM_OPTIONS key"
expect_contains "$err" "unknown option 'sedes'" "names the key"
run "$PASSING" --sim_help
expect_eq "$rc" 0 "--sim_help"
expect_contains "$err" "--sim_replay=SEED" "help lists the flags"
expect_contains "$err" "max_steps" "help lists the options"
run "$PASSING" --sim_max_steps=5 --gtest_filter='LockedCounter.TwoThreads*'
expect_eq "$rc" 1 "a generic option flag takes effect"
expect_contains "$out" "WARNING: simthread: step limit" "--sim_max_steps=5 hits the step limit"
echo PASS
