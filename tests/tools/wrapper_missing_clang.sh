# Without clang-19 (here: SIM_CXX/SIM_CC naming nothing) the wrapper exits 2
# and says what to install or set.
source "$(dirname "$0")/lib.sh"
run env SIM_CXX=/nonexistent "$SIM_BIN/sim-clang++" -c foo.cpp
expect_eq "$rc" 2 "exit status"
expect_eq "$err" "sim-clang++: error: /nonexistent not found: install clang-19 (scripts/install-deps.sh, as root) or set SIM_CXX to a clang 19 compiler" "message"
run env SIM_CC=no-such-clang "$SIM_BIN/sim-clang" --version
expect_eq "$rc" 2 "sim-clang exit status"
expect_contains "$err" "no-such-clang not found" "sim-clang message"
run env SIM_CXX=/nonexistent "$SIM_BIN/sim-clang++" --sim-version
expect_eq "$rc" 2 "--sim-version exit status"
echo PASS
