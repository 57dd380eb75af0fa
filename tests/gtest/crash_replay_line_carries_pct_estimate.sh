# A crash inside libc (glibc rejecting a free) gets the short report, written
# from the signal handler with a replay command prepared before the seed
# ran. That command is this SIM_TEST's own (--gtest_filter=<chunk>
# --sim_replay=SEED, not a whole program's SIM_OPTIONS=seed=N), carries
# pct's estimate when the crash came after the chunk's first seed, and
# reproduces the crash with the same trace hash.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='Failing.DoubleFreeBetween/*' --sim_strategy=pct:3
expect_eq "$rc" 134 "dies by SIGABRT, as glibc's abort would (stderr: $err)"
header=$(grep '^WARNING: simthread: crash (seed=' <<<"$err")
replay=$(sed -n 's/^  replay: //p' <<<"$err")
hash=$(sed -n 's/^  trace hash: //p' <<<"$err")
seed=$(sed -n 's/^WARNING: simthread: crash (seed=\([0-9]*\),.*/\1/p' <<<"$err")
[[ -n "$header" && -n "$replay" && -n "$hash" && -n "$seed" ]] || fail "no short crash report in: $err"
expect_contains "$err" "received SIGABRT inside libc" "the short report"
[[ "$seed" -gt 0 ]] || fail "crashed at the chunk's first seed, before the estimate could move: pick another strategy"
[[ "$replay" == *"--gtest_filter=Failing.DoubleFreeBetween/seeds_0_99"* ]] || fail "not this test's replay line: $replay"
[[ "$replay" =~ --sim_strategy=pct:3:[0-9]+ ]] || fail "the replay line does not carry pct's estimate: $replay"
[[ "$replay" == *" --sim_replay=$seed" ]] || fail "the replay line does not end with --sim_replay=$seed: $replay"
run bash -c "$replay"
expect_eq "$rc" 134 "the replay crashes too (stderr: $err)"
expect_contains "$err" "$header" "same seed and step"
expect_contains "$err" "  trace hash: $hash" "same trace hash"
echo PASS
