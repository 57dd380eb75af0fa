# deterministic.sh PROGRAM SEEDS: every one of SEEDS seeds of PROGRAM, run
# twice with check_determinism=1 (the second run replaying the first's
# schedule), gives the same execution: nothing outside the world (a real
# clock, the CPU's time-stamp counter) steers the library.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seeds="$2"
SIM_OPTIONS=check_determinism=1 run "$SIM_BIN/sim-run" --seeds "$seeds" --timeout 120 -- "$program"
expect_eq "$rc" 0 "sim-run exit status; output:
$out
$err"
expect_eq "$out" "sim-run: $seeds seeds passed" "summary"
echo PASS
