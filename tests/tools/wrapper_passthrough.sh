# --version, -v and -### alone are clang's own answer, untouched; the wrapper
# prints nothing of its own, and a real compile prints nothing either.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --version
expect_eq "$out" "$(clang++-19 --version)" "--version"
run "$SIM_BIN/sim-clang++" -v
expect_eq "$err" "$(clang++-19 -v 2>&1)" "-v"
printf 'int g; int main() { return g; }\n' > "$TEST_TMP/quiet.cpp"
run "$SIM_BIN/sim-clang++" -### -c "$TEST_TMP/quiet.cpp"
expect_contains "$err" "libSimPass.so" "-### with an input shows the full command"
run "$SIM_BIN/sim-clang++" -c "$TEST_TMP/quiet.cpp" -o "$TEST_TMP/quiet.o"
expect_eq "$rc$out$err" "0" "a compile prints nothing"
run "$SIM_BIN/sim-clang++" "$TEST_TMP/quiet.o" -o "$TEST_TMP/quiet"
expect_eq "$rc$out$err" "0" "an objects-only link prints nothing"
echo PASS
