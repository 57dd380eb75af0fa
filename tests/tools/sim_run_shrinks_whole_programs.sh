# A failing whole program is shrunk by rerunning it: sim-run reports fewer
# preemptions than the run as found, with the story, and --no-shrink
# reports the schedule as found. The shrunk report's replay line gives it
# again, with the same trace hash.
source "$(dirname "$0")/lib.sh"
example="$SIM_EXAMPLES/lazy_registry"
# The check-then-act is a data race too, which the detector reports with no
# preemption; this test is about shrinking main's own failure, the double
# build, so the detector is off (sim-run puts races=0 in every replay line).
export SIM_OPTIONS="${SIM_OPTIONS:+$SIM_OPTIONS:}races=0"
run "$SIM_BIN/sim-run" --seeds 1000 --report-json "$TEST_TMP/shrunk.json" -- "$example"
expect_eq "$rc" 1 "sim-run finds the double build"
after="$(json_field "$TEST_TMP/shrunk.json" "j['failure']['preemptions']")"
before="$(json_field "$TEST_TMP/shrunk.json" "j['failure']['preemptions_before_shrink']")"
(( after < before )) || fail "expected fewer preemptions after shrinking: $after, before $before"
expect_eq "$after" "1" "a check-then-act without a lock needs one preemption"
expect_contains "$out" "preemptions: 1 (shrunk from $before)" "the report tells both counts"
expect_contains "$out" "<- preempted" "the report tells the story"
hash="$(json_field "$TEST_TMP/shrunk.json" "j['failure']['trace_hash']")"
replay="$(sed -n 2p <<< "$out")"
replay="${replay#replay: }"
(eval "$replay") > /dev/null 2> "$TEST_TMP/replay.stderr"
expect_contains "$(cat "$TEST_TMP/replay.stderr")" "trace hash: $hash" "the replay line gives the shrunk report again"

# An ABBA deadlock needs one preemption; greedy removal alone stops at two
# for this seed, the bounded exhaustive phase finds the one.
run "$SIM_BIN/sim-run" --seeds 1000 --report-json "$TEST_TMP/abba.json" -- "$SIM_EXAMPLES/abba_deadlock"
expect_eq "$rc" 1 "sim-run finds the deadlock"
expect_eq "$(json_field "$TEST_TMP/abba.json" "j['failure']['preemptions']")" "1" "ABBA shrinks to one preemption"

run "$SIM_BIN/sim-run" --seeds 1000 --no-shrink --report-json "$TEST_TMP/as_found.json" -- "$example"
expect_eq "$rc" 1 "sim-run --no-shrink finds it too"
expect_eq "$(json_field "$TEST_TMP/as_found.json" "j['failure']['preemptions']")" "$before" "as found"
expect_eq "$(json_field "$TEST_TMP/as_found.json" "j['failure']['preemptions_before_shrink']")" "$before" "no shrink"
expect_contains "$out" "replay: SIM_OPTIONS=races=0:seed=" "replay line"
expect_contains "$out" ":shrink=0" "the replay line keeps --no-shrink"
echo PASS
