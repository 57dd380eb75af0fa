# All seeds pass: one line, exit 0, every seed in [start, start+N) run once
# with the user's SIM_OPTIONS first and then seed= and strategy=.
source "$(dirname "$0")/lib.sh"
export STANDIN_LOG="$TEST_TMP/log"
mkdir -p "$TEST_TMP/scratch"
run env TMPDIR="$TEST_TMP/scratch" SIM_OPTIONS=max_steps=500 "$SIM_BIN/sim-run" --seeds 25 --start 100 --jobs 3 --strategy pct:3 -- "$STANDIN" a 'b c'
expect_eq "$rc" 0 "exit status"
expect_eq "$out" "sim-run: 25 seeds passed" "summary"
expect_eq "$err" "" "stderr"
expect_eq "$(sort -t= -k2 -n "$STANDIN_LOG" | awk '{print $1}' | tr '\n' ' ')" "$(for s in $(seq 100 124); do printf 'seed=%s ' "$s"; done)" "each seed once"
line="$(grep '^seed=107 ' "$STANDIN_LOG")"
expect_contains "$line" "options=max_steps=500:seed=107:strategy=pct:3:report_json=" "child SIM_OPTIONS"
expect_contains "$line" "args=a b c" "child arguments"
expect_contains "$line" "report_json=$TEST_TMP/scratch/sim-run." "report files go to \$TMPDIR"
expect_eq "$(ls -A "$TEST_TMP/scratch")" "" "scratch directory removed"
echo PASS
