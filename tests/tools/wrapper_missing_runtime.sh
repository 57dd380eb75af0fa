# A wrapper whose lib/ lacks the plugin or the runtime exits 2 naming the
# path and saying the build must run first; --showme still prints.
source "$(dirname "$0")/lib.sh"
mkdir -p "$TEST_TMP/prefix/bin" "$TEST_TMP/prefix/lib"
cp "$SIM_BIN/sim-clang++" "$TEST_TMP/prefix/bin/"
printf 'int main() { return 0; }\n' > "$TEST_TMP/t.cpp"
run "$TEST_TMP/prefix/bin/sim-clang++" -c "$TEST_TMP/t.cpp" -o "$TEST_TMP/t.o"
expect_eq "$rc" 2 "no plugin: exit status"
expect_eq "$err" "sim-clang++: error: the simthread pass plugin not found at $TEST_TMP/prefix/lib/libSimPass.so: build the project first (cmake --build build --target SimPass)" "no plugin: message"
ln -s "$SIM_LIB/libSimPass.so" "$TEST_TMP/prefix/lib/libSimPass.so"
run "$TEST_TMP/prefix/bin/sim-clang++" "$TEST_TMP/t.cpp" -o "$TEST_TMP/t"
expect_eq "$rc" 2 "no runtime: exit status"
expect_contains "$err" "the simthread runtime not found at $TEST_TMP/prefix/lib/libsimrt.a: build the project first" "no runtime: message"
ln -s "$SIM_LIB/libsimrt.a" "$TEST_TMP/prefix/lib/libsimrt.a"
run "$TEST_TMP/prefix/bin/sim-clang++" "$TEST_TMP/t.cpp" -o "$TEST_TMP/t"
expect_eq "$rc" 2 "no whole-program runtime: exit status"
expect_contains "$err" "the whole-program runtime not found at $TEST_TMP/prefix/lib/libsim_whole_program.a" "no whole-program runtime: message"
expect_contains "$err" "-fno-sim-whole-program" "message names the way out"
# The wrapper finds lib/ relative to itself, also through a symlink.
ln -s "$TEST_TMP/prefix/bin/sim-clang++" "$TEST_TMP/c++"
run "$TEST_TMP/c++" --showme -c t.cpp
expect_contains "$out" "-fpass-plugin=$TEST_TMP/prefix/lib/libSimPass.so" "found through a symlink"
echo PASS
