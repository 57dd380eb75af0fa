# passes_every_seed.sh PROGRAM SEEDS [NATIVE]: sim-run passes PROGRAM (built
# with sim-clang++) at every one of SEEDS seeds, and the program passes
# natively: NATIVE (a plain clang++ build of it, as tests/thirdparty/ has),
# or PROGRAM itself run without SIM_OPTIONS. SIM_OPTIONS in the environment
# (check_determinism=1, say) reaches every seed. ctest sets SIM_BIN (the
# build's bin/) and TEST_TMP.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
program="$1"
seeds="$2"
native="${3:-$1}"
run env -u SIM_OPTIONS "$native"
expect_eq "$rc" 0 "native run exit status; stderr: $err"
run "$SIM_BIN/sim-run" --seeds "$seeds" --timeout 120 -- "$program"
expect_eq "$rc" 0 "sim-run exit status; output:
$out
$err"
expect_eq "$out" "sim-run: $seeds seeds passed" "summary"
echo PASS
