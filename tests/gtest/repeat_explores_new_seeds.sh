# --gtest_repeat=2: the second iteration explores the next `seeds` seeds
# (iteration i shifts every chunk by i * seeds); names stay those of
# iteration 0, and each replay line names the seed that failed.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='Failing.AlwaysFails/*' --gtest_repeat=2 --sim_seeds=50 --sim_chunk=50
[[ "$rc" -ne 0 ]] || fail "a failing SIM_TEST exited 0"
expect_eq "$(grep '^SIM_TEST Failing.AlwaysFails failed at seed' <<<"$out" | sed 's/ (.*//')" \
  "SIM_TEST Failing.AlwaysFails failed at seed 0
SIM_TEST Failing.AlwaysFails failed at seed 50" "iteration 0 starts at seed 0, iteration 1 at seed 50"
expect_contains "$out" "  replay: $FAILING --gtest_filter=Failing.AlwaysFails/seeds_0_49 --sim_seeds=50 --sim_chunk=50 --sim_replay=50" "replay of iteration 1"
echo PASS
