# fork_server_lib.sh: builds tests/tools/fork_server_probe.cpp with
# sim-clang++ into $TEST_TMP/probe (sourced after lib.sh).
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "$(dirname "${BASH_SOURCE[0]}")/fork_server_probe.cpp" -o "$TEST_TMP/probe"
expect_eq "$rc" 0 "compile the probe: $err"
probe="$TEST_TMP/probe"
