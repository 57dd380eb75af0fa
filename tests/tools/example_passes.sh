# A correct program (locks, thread_local, atomics, condition variables)
# passes 1,000 seeds.
source "$(dirname "$0")/lib.sh"
example="$1"
run "$SIM_BIN/sim-run" --seeds 1000 --timeout 60 -- "$SIM_EXAMPLES/$example"
expect_eq "$rc" 0 "sim-run exit status; output:
$out
$err"
expect_eq "$out" "sim-run: 1000 seeds passed" "summary"
echo PASS
