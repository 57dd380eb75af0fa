# shrinks_to_minimum.sh PROGRAM SEED MINIMUM CANDIDATES: the buggy program's
# failure at SEED (races=0: its own check) shrinks to MINIMUM preemptions,
# proven the fewest (no "budget spent"), within CANDIDATES candidates; the
# minimum is what dfs finds (docs/performance.md's table). A failure whose
# few preemptions sit near those greedy removal leaves, but late in the
# bounded search's order, needs the near phase (explore/near_schedules.h)
# to get there within the bound.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seed="$2"
minimum="$3"
candidates="$4"
SIM_OPTIONS="seed=$seed:races=0:shrink_candidates=$candidates:report_json=$TEST_TMP/report.json" run "$program"
[[ "$rc" != 0 ]] || fail "seed $seed passed: $err"
expect_matches "$err" $'\n  preemptions: '"$minimum"$' \\(shrunk from [0-9]+\\)\n' \
  "shrunk to $minimum, proven, within $candidates candidates"
expect_eq "$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['preemptions'], j['minimum_at_least'])" \
  "$TEST_TMP/report.json")" "$minimum None" "the JSON: the fewest, proven"
echo PASS
