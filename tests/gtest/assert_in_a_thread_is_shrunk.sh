# A C assert() failing in a worker thread is a crash of a sound process:
# shrunk (one preemption for a check-then-act), diffed against the passing
# seed and replayed by its printed line with the same trace hash, as an
# EXPECT failure is.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='FailingAssert.OverdrawnInAThread/*'
[[ "$rc" -ne 0 ]] || fail "the failing SIM_TEST passed"
expect_contains "$out" "WARNING: simthread: crash (seed=" "the verdict stays a crash"
expect_contains "$out" "  assertion failed in T" "the message names the assertion"
expect_contains "$out" "failing_assert_tests.cpp:23" "and where it failed"
expect_contains "$out" "  diff: departs from passing seed 0 at event " "diffed against the passing seed"
preemptions=$(sed -n 's/^  preemptions: //p' <<<"$out")
[[ "$preemptions" =~ ^1\ \(shrunk\ from\ [0-9]+\)$ ]] || fail "expected 'preemptions: 1 (shrunk from N)', got [$preemptions] in: $out"
expect_eq "$(grep -c '<- preempted' <<<"$out")" 1 "the story tells one preemption"
replay=$(sed -n 's/^  replay: //p' <<<"$out")
hash=$(sed -n 's/^  trace hash: //p' <<<"$out")
[[ -n "$replay" && -n "$hash" ]] || fail "no replay line or trace hash in: $out"
run bash -c "$replay"
[[ "$rc" -ne 0 ]] || fail "the replay passed: $out"
expect_contains "$out" "  trace hash: $hash" "the replay line gives the same execution"
expect_contains "$out" "  preemptions: $preemptions" "and the same shrunk report"
echo PASS
