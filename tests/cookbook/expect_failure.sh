# expect_failure.sh [options] -- BINARY FLAGS...: the SIM_TEST FLAGS select
# fails, the way docs/cookbook.md shows, and its printed replay line
# reproduces it.
#   --message TEXT      the report contains TEXT (repeatable)
#   --absent TEXT       the report does not contain TEXT (repeatable)
#   --every-seed N      also run seeds 0..N-1 one chunk test each: every one fails
#   --env NAME=VALUE    set for the first run only (the replay line must not need it)
#   --preemptions N     the shrunk schedule has exactly N preemptions (the bug needs N)
#   --verdict TEXT      the report's verdict (default: failure; "data race")
# Checks: exit status not 0; a failure report with a shrunk "preemptions:"
# line, a schedule, a trace hash and one replay line; then runs the replay
# line in a clean environment: it fails again with the same report (same
# SUMMARY, same trace hash) and the same execution each time; and the printed
# schedule (--sim_schedule) replays the shrunk interleaving with that hash.
source "$(dirname "$0")/lib.sh"
messages=() absents=() env_assignments=() every_seed=0 preemptions="" verdict=failure
while [[ $# -gt 0 && "$1" != -- ]]; do
  case "$1" in
    --message) messages+=("$2"); shift 2 ;;
    --absent) absents+=("$2"); shift 2 ;;
    --every-seed) every_seed="$2"; shift 2 ;;
    --env) env_assignments+=("$2"); shift 2 ;;
    --preemptions) preemptions="$2"; shift 2 ;;
    --verdict) verdict="$2"; shift 2 ;;
    *) fail "unknown option $1" ;;
  esac
done
shift
[[ $# -ge 1 ]] || fail "no binary"

run env "${env_assignments[@]}" "$@"
[[ "$rc" -ne 0 ]] || fail "the failing variant passed: $out"
expect_contains "$out" "WARNING: simthread: $verdict (seed=" "a $verdict report"
for message in "${messages[@]}"; do expect_contains "$out" "$message" "the expected message"; done
for absent in "${absents[@]}"; do expect_not_contains "$out" "$absent" "a message that must not appear"; done
grep -q '^  preemptions: [0-9]*\( (shrunk from [0-9]*)\)\?$' <<<"$out" || fail "no preemptions line: $out"
if [[ -n "$preemptions" ]]; then
  grep -q "^  preemptions: $preemptions\( (shrunk from [0-9]*)\)\?\$" <<<"$out" ||
    fail "expected the shrunk schedule to have exactly $preemptions preemption(s): $(grep '^  preemptions:' <<<"$out")"
fi
replay=$(sed -n 's/^  replay: //p' <<<"$out")
hash=$(sed -n 's/^  trace hash: //p' <<<"$out")
seed=$(sed -n "s/^WARNING: simthread: $verdict (seed=\\([0-9]*\\),.*/\\1/p" <<<"$out")
summary=$(grep '^SUMMARY: simthread: ' <<<"$out")
[[ -n "$hash" && -n "$seed" && -n "$summary" ]] || fail "no trace hash, seed or SUMMARY in: $out"
[[ $(grep -c . <<<"$replay") -eq 1 ]] || fail "expected one replay line, got [$replay]"
expect_contains "$replay" "$1 " "the replay line runs this binary"
expect_contains "$replay" "--sim_replay=$seed" "the replay line names the failing seed"
for assignment in "${env_assignments[@]}"; do
  [[ "$assignment" == SIM_OPTIONS=pin=* ]] && expect_contains "$replay" "--sim_pin=${assignment#SIM_OPTIONS=pin=}" "the replay line repeats pin from SIM_OPTIONS"
done

run env -u SIM_OPTIONS bash -c "$replay"
[[ "$rc" -ne 0 ]] || fail "the replay line passed: $out"
expect_contains "$out" "  trace hash: $hash" "the replay has the same trace hash"
expect_contains "$out" "$summary" "the replay fails the same way"
expect_contains "$err" "simthread: replayed seed $seed of " "the replay says which seed it ran"
# That line describes the seed's execution as found; the block's trace hash
# is the shrunk schedule's. Running the replay line again gives the same line.
replayed_line=$(grep "^simthread: replayed seed $seed of " <<<"$err")
run env -u SIM_OPTIONS bash -c "$replay"
expect_contains "$err" "$replayed_line" "a second replay runs the same execution"
# The printed schedule replays the shrunk interleaving itself: same hash.
schedule=$(sed -n 's/^  schedule: //p' <<<"$out")
[[ -n "$schedule" ]] || fail "no schedule line: $out"
run env -u SIM_OPTIONS bash -c "${replay% --sim_replay=*} --sim_schedule=$schedule"
[[ "$rc" -ne 0 ]] || fail "--sim_schedule passed: $out"
expect_contains "$err" "simthread: replayed the schedule of " "--sim_schedule says what it ran"
expect_contains "$err" "trace hash $hash" "--sim_schedule runs the shrunk interleaving: same trace hash"

if (( every_seed > 0 )); then
  run env "${env_assignments[@]}" "$@" --sim_seeds="$every_seed" --sim_chunk=1
  [[ "$rc" -ne 0 ]] || fail "every seed: exit status 0"
  failed=$(grep -c '^\[  FAILED  \] .*, where GetParam() = seeds=.* ms)$' <<<"$out")
  [[ "$failed" -eq "$every_seed" ]] || fail "every seed: $failed of $every_seed one-seed chunks failed: $out"
  expect_not_contains "$out" "[       OK ]" "every seed: no chunk passed"
fi
echo "PASS (seed $seed, trace hash $hash)"
