# --sim-version names the wrapper, its version and the clang it wraps.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --sim-version
expect_eq "$rc" 0 "exit status"
expect_eq "$(head -n 1 <<< "$out")" "sim-clang++ (simthread) $SIM_VERSION" "first line"
expect_contains "$(sed -n 2p <<< "$out")" "clang version 19" "second line names the wrapped clang"
run "$SIM_BIN/sim-clang" --sim-version
expect_eq "$(head -n 1 <<< "$out")" "sim-clang (simthread) $SIM_VERSION" "sim-clang first line"
echo PASS
