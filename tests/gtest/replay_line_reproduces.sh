# Running the printed replay line runs that one seed and fails the same way
# with the same trace hash; so does --sim_schedule with the printed schedule.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='Failing.OverdrawnAccount/*' --sim_strategy=pct:2
[[ "$rc" -ne 0 ]] || fail "the failing SIM_TEST passed"
replay=$(sed -n 's/^  replay: //p' <<<"$out")
hash=$(sed -n 's/^  trace hash: //p' <<<"$out")
message=$(sed -n '/^WARNING: simthread:/{n;p;q}' <<<"$out")
seed=$(sed -n 's/^WARNING: simthread: failure (seed=\([0-9]*\),.*/\1/p' <<<"$out")
schedule=$(sed -n 's/^  schedule: //p' <<<"$out")
[[ -n "$replay" && -n "$hash" && -n "$message" ]] || fail "no replay/hash/message in: $out"
expect_contains "$replay" "--sim_strategy=pct:2" "the replay repeats the strategy flag"
run bash -c "$replay"
[[ "$rc" -ne 0 ]] || fail "replay exited 0: $out"
expect_contains "$out" "  trace hash: $hash" "same trace hash"
expect_contains "$out" "$message" "same message"
expect_contains "$err" "simthread: replayed seed $seed of Failing.OverdrawnAccount/seeds_0_99: failure, " "replay says how it ended"
expect_eq "$(grep -c '^\[ RUN      \]' <<<"$out")" 1 "one chunk ran"
run "$FAILING" --gtest_filter='Failing.OverdrawnAccount/*' "--sim_schedule=$schedule"
[[ "$rc" -ne 0 ]] || fail "--sim_schedule passed: $out"
expect_contains "$out" "  trace hash: $hash" "--sim_schedule: same trace hash"
expect_contains "$err" "simthread: replayed the schedule of Failing.OverdrawnAccount/seeds_0_99: failure, " "--sim_schedule says how it ended"
echo PASS
