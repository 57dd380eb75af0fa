# Shrinking a data race reaches the fewest preemptions that make the same
# pair of sites race first, and says so only when it proved it: with its
# budget cut short, the report says how far the proof got.
# lazy_registry seed 2 races on next_id_ (the two writes of `next_id_++`):
# one preemption suffices (T1 preempted after its write, before it
# publishes the client, so T2 builds one too); the search that reduced
# orders by the races it saw never tried it, since every execution it ran
# ended first at the race on client_ (7 preemptions were reported).
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
program="$SIM_EXAMPLES/lazy_registry"

SIM_OPTIONS=seed=2:report_json=full.json run "$program"
expect_eq "$rc" 66 "seed 2 races: $err"
expect_eq "$(grep -m1 '^SUMMARY' <<< "$err")" \
  "SUMMARY: simthread: data race: ServiceRegistry::get_client() examples/programs/lazy_registry.cpp:20" "the race on next_id_"
expect_matches "$err" $'\n  preemptions: 1 \\(shrunk from [0-9]+\\)\n' "shrunk to the one preemption the race needs"
expect_eq "$(json_field full.json "j['preemptions'], j['minimum_at_least']")" "(1, None)" "the JSON: proven the fewest"
# The told schedule replays to the same race with that one preemption.
schedule="$(json_field full.json "j['schedule']")"
SIM_OPTIONS="schedule=$schedule" run "$program"
expect_eq "$rc" 66 "the shrunk schedule replays: $err"
expect_eq "$(grep -m1 '^SUMMARY' <<< "$err")" "$(grep -m1 '^SUMMARY' <<< "$(cat "$TEST_TMP/stderr")")" "the same race"

# A budget too small to prove it: the report says how far it got.
SIM_OPTIONS=seed=2:shrink_candidates=3:report_json=cut.json run "$program"
expect_eq "$rc" 66 "seed 2 with 3 candidates: $err"
expect_contains "$err" "  shrinking stopped at its bound of 3 candidates (shrink_candidates)" "the bound is named"
expect_matches "$err" $'\n  preemptions: [0-9]+ \\((shrunk from [0-9]+; )?(the minimum is [0-9]+ or more|not proven the fewest), budget spent\\)\n' \
  "not presented as the fewest"
expect_matches "$(json_field cut.json "j['minimum_at_least']")" "^[0-9]+$" "the JSON: how far the proof got"

# Without shrinking, no claim either way.
SIM_OPTIONS=seed=2:shrink=0 run "$program"
expect_matches "$err" $'\n  preemptions: [0-9]+\n' "shrink=0: the count alone"
echo PASS
