# -fsim-gate=X becomes -mllvm -sim-gate=X, with the plugin loaded early once
# (clang parses -mllvm before -fpass-plugin loads it: instrument/README.md).
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --showme -fsim-gate=Repository::fetch -c foo.cpp -fsim-gate=Cache::evict
expect_contains "$out" "-fpass-plugin=$SIM_LIB/libSimPass.so -Xclang -load -Xclang $SIM_LIB/libSimPass.so -mllvm -sim-gate=Repository::fetch -mllvm -sim-gate=Cache::evict" "gate flags"
expect_not_contains "$out" "-fsim-gate" "the wrapper's flag is not passed to clang"
run "$SIM_BIN/sim-clang++" --showme -c foo.cpp
expect_not_contains "$out" "-Xclang -load" "no early load without gates"
run "$SIM_BIN/sim-clang++" --showme -fsim-gate= -c foo.cpp
expect_eq "$rc" 2 "empty gate name exit status"
expect_contains "$err" "-fsim-gate= needs a function name" "empty gate name message"
# The real compiler accepts the translated flags.
printf 'struct Repository { int fetch(int k); };\nint Repository::fetch(int k) { return k; }\n' > "$TEST_TMP/gate.cpp"
run "$SIM_BIN/sim-clang++" -fsim-gate=Repository::fetch -c "$TEST_TMP/gate.cpp" -o "$TEST_TMP/gate.o"
expect_eq "$rc" 0 "compiling with a gate: $err"
expect_eq "$err" "" "compiling with a gate prints nothing"
nm "$TEST_TMP/gate.o" | grep -q __sim_gate || fail "gate.o does not call __sim_gate"
echo PASS
