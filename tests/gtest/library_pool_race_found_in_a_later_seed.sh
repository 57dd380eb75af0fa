# A race in work run by a pool of threads started once per process
# (failing_worker_pool_test.cpp) is found at a seed after the first: each
# execution runs in a process of its own, so the pool's workers exist in
# every execution. Run in one process (isolate=none), every execution after
# the first runs the work on the caller alone, and the chunk passes in
# silence: the reason isolate=fork is SIM_TEST's default. The report is
# shrunk, and its printed replay line prints the same report three times.
# The race is looked for as its lost update, with the detector off: on, it
# reports the race at the first seed, where the workers exist in either mode.
source "$(dirname "$0")/lib.sh"
filter='--gtest_filter=WorkerPool.*'
run "$INSTRUMENTED" "$filter" --sim_seeds=100 --sim_races=0
[[ "$rc" -ne 0 ]] || fail "the race was not found in 100 seeds: $out"
report="$out"
seed="$(sed -n 's/.* failed at seed \([0-9]*\) .*/\1/p' <<< "$report" | head -1)"
[[ -n "$seed" && "$seed" -gt 0 ]] ||
  fail "found at seed [$seed]: the check needs a later seed than the first, where one process would have no workers left"
expect_contains "$report" "Expected equality of these values" "the EXPECT's message"
hash="$(grep -o 'trace hash: [0-9a-f]*' <<< "$report" | head -1)"
[[ -n "$hash" ]] || fail "no trace hash in: $report"
replay_line="$(sed -n 's/^ *replay: //p' <<< "$report" | head -1)"
expect_contains "$replay_line" "--sim_replay=$seed" "the replay line"
expect_contains "$report" "shrunk from" "a shrunk report"
same_report() {  # the lines of a report that must repeat exactly
  grep -E '^  (preemptions|schedule|trace hash): ' <<< "$1"
}
expected="$(same_report "$report")"
for attempt in 1 2 3; do
  run bash -c "$replay_line"
  [[ "$rc" -ne 0 ]] || fail "replay $attempt passed: $replay_line"
  expect_contains "$out" "$hash" "replay $attempt: the trace hash"
  expect_eq "$(same_report "$out")" "$expected" "replay $attempt: the same preemptions, schedule and hash"
done

run "$INSTRUMENTED" "$filter" --sim_seeds=100 --sim_isolate=none --sim_races=0
expect_eq "$rc" 0 "in one process the later seeds run without workers and pass (stdout: $out)"
expect_contains "$err" "passed with 2 thread(s) still running" "in one process, said once"
expect_contains "$err" "isolate=fork runs executions in worker processes" "with the fix"
echo PASS
