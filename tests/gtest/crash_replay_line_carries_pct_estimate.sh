# A crash inside libc (glibc rejecting a free) gets the short report, written
# from the signal handler with a replay command prepared before the seed
# ran. That command is this SIM_TEST's own (--gtest_filter=<chunk>
# --sim_replay=SEED, not a whole program's SIM_OPTIONS=seed=N), carries
# pct's estimate when the crash came after the chunk's first seed, and
# reproduces the crash with the same trace hash: when exploring, and when
# check_determinism=1 runs each seed twice (a path of its own, which used to
# print the command without the estimate). Under isolate=fork (SIM_TEST's
# default) the execution's process dies by SIGABRT and the test's process
# reports the failure and goes on (exit 1); in one process (isolate=none)
# the test's process dies, as glibc's abort would kill it (exit 134).
source "$(dirname "$0")/lib.sh"
check_chunk() {
  local description=$1
  local status=$2
  shift 2
  run "$@" "$FAILING" --gtest_filter='Failing.DoubleFreeBetween/*' --sim_strategy=pct:3
  expect_eq "$rc" "$status" "$description: exit status (stderr: $err)"
  if [[ "$status" == 1 ]]; then
    expect_contains "$out" "the execution's process was killed by SIGABRT" "$description: the test's failure"
  fi
  header=$(grep '^WARNING: simthread: crash (seed=' <<<"$err")
  replay=$(sed -n 's/^  replay: //p' <<<"$err")
  hash=$(sed -n 's/^  trace hash: //p' <<<"$err")
  seed=$(sed -n 's/^WARNING: simthread: crash (seed=\([0-9]*\),.*/\1/p' <<<"$err")
  [[ -n "$header" && -n "$replay" && -n "$hash" && -n "$seed" ]] || fail "$description: no short crash report in: $err"
  expect_contains "$err" "received SIGABRT inside libc" "$description: the short report"
  [[ "$seed" -gt 0 ]] || fail "$description: crashed at the chunk's first seed, before the estimate could move: pick another strategy"
  [[ "$replay" == *"--gtest_filter=Failing.DoubleFreeBetween/seeds_0_99"* ]] || fail "$description: not this test's replay line: $replay"
  [[ "$replay" =~ --sim_strategy=pct:3:[0-9]+ ]] || fail "$description: the replay line does not carry pct's estimate: $replay"
  [[ "$replay" == *" --sim_replay=$seed" ]] || fail "$description: the replay line does not end with --sim_replay=$seed: $replay"
  # The replay line names no isolation (one seed runs the same execution
  # either way): it runs under SIM_TEST's default.
  run bash -c "$replay"
  expect_eq "$rc" 1 "$description: the replay crashes too (stderr: $err)"
  expect_contains "$err" "$header" "$description: same seed and step"
  expect_contains "$err" "  trace hash: $hash" "$description: same trace hash"
}
check_chunk "exploring" 1
check_chunk "with check_determinism=1" 1 env SIM_OPTIONS=check_determinism=1
check_chunk "exploring in one process" 134 env SIM_OPTIONS=isolate=none
check_chunk "in one process with check_determinism=1" 134 env SIM_OPTIONS=isolate=none:check_determinism=1
echo PASS
