# sim-run with fork servers (the default) and with --no-fork-server prints the
# same thing for a buggy example: the same lowest failing seed, replay line,
# report (shrunk by rerunning) and report JSON, and with --keep-going the same
# failing seeds with the same reports.
source "$(dirname "$0")/lib.sh"
example="$1"
# The lowest failure, shrunk (a data race, for three of the examples); then
# every failing seed of 80, as found, of the program's own failures: with
# the race detector every seed of a racy example fails, and each race report
# costs a process 0.1-3 s (symbolizing, rerunning, flipping), 80 of them a
# minute or two.
for pass in lowest all; do
  pass_flags=() options=""
  [[ $pass == all ]] && pass_flags=(--keep-going --no-shrink) options=races=0
  for mode in fork spawn; do
    flags=("${pass_flags[@]}")
    [[ $mode == spawn ]] && flags+=(--no-fork-server)
    SIM_OPTIONS="$options" run "$SIM_BIN/sim-run" --seeds 80 --jobs 2 --timeout 60 "${flags[@]}" \
      --report-json "$TEST_TMP/$mode.json" -- "$SIM_EXAMPLES/$example"
    expect_eq "$rc" 1 "$pass, $mode: exit status"
    # --keep-going says each distinct failure as it finds it, in the order
    # seeds end; nothing else.
    expect_eq "$(grep -v '^sim-run: seed [0-9]* failed: .* (new; replay: .*)$' <<< "$err")" "" \
      "$pass, $mode: nothing else on stderr"
    printf '%s\n' "$out" > "$TEST_TMP/$mode.out"
  done
  expect_eq "$(cat "$TEST_TMP/fork.out")" "$(cat "$TEST_TMP/spawn.out")" "$pass: sim-run's output"
  expect_eq "$(cat "$TEST_TMP/fork.json")" "$(cat "$TEST_TMP/spawn.json")" "$pass: sim-run's report JSON"
  head -1 "$TEST_TMP/fork.out"
done
tail -1 "$TEST_TMP/fork.out"
echo PASS
