# A program whose passing exit status is not 0 (a test driver that exits 6
# on success): --pass-exit-status names it, sim-run passes it to the program
# as pass_exit_status, and any other status is the runtime's failure, named
# as the report names it.
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/driver.cpp" <<'PROGRAM'
#include <cstdlib>
#include <thread>
int finished = 0;
int main() {
  std::thread worker([] { ++finished; });
  worker.join();
  // Passing is 6 here; SIM_DRIVER_BROKEN makes it return 0, which is a failure.
  return std::getenv("SIM_DRIVER_BROKEN") != nullptr ? 0 : (finished == 1 ? 6 : 1);
}
PROGRAM
"$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "$TEST_TMP/driver.cpp" -o "$TEST_TMP/driver" || fail "build the driver"

run "$SIM_BIN/sim-run" --seeds 20 --pass-exit-status 6 -- "$TEST_TMP/driver"
expect_eq "$rc" 0 "status 6 passes with --pass-exit-status 6 (output: $out $err)"
expect_eq "$out" "sim-run: 20 seeds passed" "summary"

run "$SIM_BIN/sim-run" --seeds 20 --report-json "$TEST_TMP/plain.json" -- "$TEST_TMP/driver"
expect_eq "$rc" 1 "status 6 fails without it"
expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 0 (0 seeds passed first): failure" "summary names the runtime's verdict"
expect_contains "$out" "SUMMARY: simthread: failure: main returned 6" "the report under it agrees"
expect_eq "$(json_field "$TEST_TMP/plain.json" "j['verdict']")" "failure" "sim-run's JSON verdict is the runtime's"
expect_eq "$(json_field "$TEST_TMP/plain.json" "j['failure']['kind']")" "failure" "and so is its kind"

run env SIM_OPTIONS=pass_exit_status=6 "$SIM_BIN/sim-run" --seeds 20 -- "$TEST_TMP/driver"
expect_eq "$rc" 0 "pass_exit_status in SIM_OPTIONS counts as the flag does"

run env SIM_DRIVER_BROKEN=1 "$SIM_BIN/sim-run" --seeds 20 --pass-exit-status 6 -- "$TEST_TMP/driver"
expect_eq "$rc" 1 "status 0 fails when 6 is the passing one"
expect_contains "$out" "main returned 0 (the passing status is 6: pass_exit_status)" "the report says why 0 failed"
replay="$(sed -n 2p <<< "$out")"
expect_eq "$replay" "replay: SIM_OPTIONS=seed=0:pass_exit_status=6 $TEST_TMP/driver" "the replay line carries the status"
(eval "env SIM_DRIVER_BROKEN=1 ${replay#replay: }") > /dev/null 2> "$TEST_TMP/replayed.stderr"
expect_contains "$(cat "$TEST_TMP/replayed.stderr")" "main returned 0 (the passing status is 6" "the replay line reproduces it"

run "$SIM_BIN/sim-run" --pass-exit-status 300 -- "$TEST_TMP/driver"
expect_eq "$rc" 2 "a status over 255 is a usage error"
echo PASS
