# bounded_search_passes.sh PROGRAM BOUND: sim-run --strategy dfs:BOUND over
# the correct program PROGRAM runs every schedule within the bound and ends
# with "no failure". Two false alarms it guards against: a schedule whose
# decisions, passed to its process in full, outgrew one environment
# variable (concurrentqueue's 16th schedule at dfs:0, 185 KB), which the
# search reported as a hang; and a consumer that yields in a loop until a
# producer runs (xenium), which went on yielding forever when going on was
# the default at a yield.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
bound="$2"
run "$SIM_BIN/sim-run" --strategy "dfs:$bound" -- "$program"
expect_eq "$rc" 0 "dfs:$bound over $program: $out $err"
expect_matches "$out" "sim-run: dfs:$bound: no failure in any schedule with <= $bound preemptions: [0-9]+ schedules" \
  "the search ran every schedule within the bound"
echo PASS
