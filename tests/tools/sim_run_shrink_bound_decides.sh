# Whole-program shrinking stops at a count of reruns (shrink_candidates), not
# at a wall-clock budget: the same seed prints the same report (preemptions,
# story, schedule, trace hash) three times under a generous cap and three
# times under the default one, and says the bound stopped it. When the
# wall-clock cap cuts the search instead, the report says so.
source "$(dirname "$0")/lib.sh"
example="$SIM_EXAMPLES/unlocked_counter"
[[ -x "$example" ]] || { echo "no examples yet"; echo PASS; exit 0; }
# Seed 0 under random: a lost update found with over 100 preemptions, which
# greedy removal takes out about one rerun at a time. races=0: the
# detector would report the counter's race instead, after a few steps.
options="seed=0:strategy=random:shrink_candidates=5:races=0"
reports=()
for cap in 600000 30000; do
  for attempt in 1 2 3; do
    run env SIM_OPTIONS="$options:shrink_budget_ms=$cap" "$example"
    expect_eq "$rc" 1 "main returns 1 (attempt $attempt, cap $cap): $err"
    expect_contains "$err" "  shrinking stopped at its bound of 5 candidates (shrink_candidates); a higher bound may find fewer preemptions" \
      "the bound stopped it (attempt $attempt, cap $cap)"
    reports+=("$(grep -v '^  replay: ' <<< "$err")")
  done
done
for report in "${reports[@]}"; do expect_eq "$report" "${reports[0]}" "the same report every time"; done
# Not proven the fewest: the greedy phase used the five up.
preemptions="$(sed -n 's/^  preemptions: \([0-9]*\) (shrunk from \([0-9]*\); not proven the fewest, budget spent)$/\1 \2/p' <<< "${reports[0]}")"
read -r after before <<< "$preemptions"
[[ -n "$after" ]] || fail "no 'preemptions: N (shrunk from M; not proven the fewest, budget spent)' line in: ${reports[0]}"
(( after < before )) || fail "five reruns took no preemption out: $after of $before"

run env SIM_OPTIONS="seed=0:strategy=random:shrink_budget_ms=0:races=0" "$example"
expect_contains "$err" "  shrinking stopped by the time cap (shrink_budget_ms=0) after 0 candidates; the result depends on machine speed" \
  "the cap cut the search"
expect_contains "$err" "  preemptions: $before (not proven the fewest, budget spent)"$'\n' "nothing was shrunk"
echo PASS
