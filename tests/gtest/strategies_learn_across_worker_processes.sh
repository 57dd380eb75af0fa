# Under isolate=fork (SIM_TEST's default) the executions run in worker
# processes, and what a strategy learns from one execution for the next
# travels back to the test's process: dfs:P enumerates the same schedules
# and ends with the same count as in one process (isolate=none), and pct,
# whose estimate of choice points moves from seed to seed, finds the lost
# update at the same seed with the same report.
source "$(dirname "$0")/lib.sh"
for isolate in fork none; do
  run "$PASSING" --gtest_filter='LockedCounter.TwoThreadsIncrementUnderAMutex/*' --sim_strategy=dfs:1 \
    --sim_seeds=100000 --sim_chunk=100000 --sim_isolate=$isolate
  expect_eq "$rc" 0 "dfs:1 under isolate=$isolate: $out"
  declare "dfs_$isolate=$(grep -o 'no failure in any schedule with <= 1 preemptions: [0-9]* schedules' <<< "$err")"
done
[[ -n "$dfs_fork" ]] || fail "dfs:1 under isolate=fork did not finish its search: $err"
expect_eq "$dfs_fork" "$dfs_none" "dfs:1's search, in worker processes and in one process"

for isolate in fork none; do
  run "$INSTRUMENTED" --gtest_filter='Instrumented.*' --sim_strategy=pct:3 --sim_isolate=$isolate
  [[ "$rc" -ne 0 ]] || fail "pct:3 under isolate=$isolate did not find the lost update: $out"
  declare "pct_$isolate=$(grep -E 'failed at seed|  schedule: |  trace hash: |  replay: ' <<< "$out")"
done
[[ -n "$pct_fork" ]] || fail "no report under isolate=fork"
expect_eq "$pct_fork" "$pct_none" "pct:3's failing seed, schedule, trace hash and replay line, in worker processes and in one process"
echo PASS
