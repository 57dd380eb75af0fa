# pct estimates the length of an execution from the chunk's earlier seeds, so
# a seed replayed alone runs as it did only with that estimate: the printed
# replay line carries it (--sim_strategy=pct:D:K) and reproduces the failure
# with the same trace hash; the plain strategy flag is not enough to promise.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='Failing.LateWriterBetween/*' --sim_strategy=pct:3
[[ "$rc" -ne 0 ]] || fail "the failing SIM_TEST passed: $out"
replay=$(sed -n 's/^  replay: //p' <<<"$out")
hash=$(sed -n 's/^  trace hash: //p' <<<"$out")
seed=$(sed -n 's/^WARNING: simthread: failure (seed=\([0-9]*\),.*/\1/p' <<<"$out")
[[ -n "$replay" && -n "$hash" && -n "$seed" ]] || fail "no replay/hash/seed in: $out"
[[ "$seed" -gt 0 ]] || fail "found at the chunk's first seed, before the estimate could move: pick another first seed"
[[ "$replay" =~ --sim_strategy=pct:3:[0-9]+ ]] || fail "the replay line does not carry pct's estimate: $replay"
run bash -c "$replay"
[[ "$rc" -ne 0 ]] || fail "replay exited 0: $out"
expect_contains "$out" "  trace hash: $hash" "same trace hash"
echo PASS
