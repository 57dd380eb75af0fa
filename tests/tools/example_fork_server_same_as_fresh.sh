# A seed forked by the program's fork server ends exactly as the same seed in
# a fresh process (`SIM_OPTIONS=seed=N ./prog`, as a user replays it): the
# same exit status or signal, the same stderr (report text and replay line)
# and the same report JSON (verdict, trace hash, schedule, shrinking).
source "$(dirname "$0")/lib.sh"
example="$1"
same_as_fresh() {  # OPTIONS SEED...: each seed, given OPTIONS, forked and fresh
  local options="$1"
  shift
  SEED_OPTIONS="$options" run python3 "$(dirname "$0")/fork_server_client.py" "$SIM_EXAMPLES/$example" "$TEST_TMP" "$@"
  expect_eq "$rc" 0 "fork server client: $out $err"
  for seed in "$@"; do
    forked_status="$(awk -v s="$seed" '$1 == s {print $2}' <<< "$out")"
    SIM_OPTIONS="seed=$seed${options:+:$options}:report_json=$TEST_TMP/fresh-$seed.json" timeout -s KILL 60 \
      "$SIM_EXAMPLES/$example" > /dev/null 2> "$TEST_TMP/fresh-$seed.stderr"
    fresh_status=$?
    (( fresh_status > 128 )) && fresh_status=$(( 128 - fresh_status ))  # killed by a signal: -N, as the client prints
    expect_eq "$forked_status" "$fresh_status" "seed $seed: exit status (fork server vs fresh)"
    expect_eq "$(cat "$TEST_TMP/fork-$seed.stderr")" "$(cat "$TEST_TMP/fresh-$seed.stderr")" "seed $seed: stderr"
    [[ -s "$TEST_TMP/fresh-$seed.json" ]] || fail "seed $seed: the fresh run wrote no report"
    expect_eq "$(cat "$TEST_TMP/fork-$seed.json")" "$(cat "$TEST_TMP/fresh-$seed.json")" "seed $seed: report JSON"
    echo "seed $seed: status $fresh_status, trace hash $(json_field "$TEST_TMP/fresh-$seed.json" "j['trace_hash']")"
  done
}
# The programs' own failures and passes: 2, 0, 8 and 56 are the first failing
# seeds of the buggy examples with races=0.
same_as_fresh races=0 $(seq 0 11) 56
# A data race's report (three examples race at every seed), shrunk and
# flipped: one seed, as each costs a few seconds.
same_as_fresh "" 0
echo PASS
