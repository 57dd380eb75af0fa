# --sim-gtest links sim::gtest_main and gtest instead of whole-program mode,
# and says clearly when libsim_gtest_main.a has not been built.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --showme --sim-gtest foo_test.cpp -o foo_test
expect_contains "$out" "-Wl,--whole-archive $SIM_LIB/libsimrt.a $SIM_LIB/libsim_gtest_main.a -Wl,--no-whole-archive -Wl,--dynamic-list=$SIM_LIB/libsimrt.exports -Wl,--dynamic-list=$SIM_LIB/libsim_gtest_main.exports -lgtest -ldl -lpthread" "gtest link"
expect_not_contains "$out" "libsim_whole_program.a" "no whole-program mode"
# A prefix without libsim_gtest_main.a: copy the wrapper next to a lib/ that lacks it.
mkdir -p "$TEST_TMP/prefix/bin" "$TEST_TMP/prefix/lib"
cp "$SIM_BIN/sim-clang++" "$TEST_TMP/prefix/bin/"
for f in libSimPass.so libsimrt.a libsim_whole_program.a; do ln -s "$SIM_LIB/$f" "$TEST_TMP/prefix/lib/$f"; done
ln -s "$SIM_INCLUDE" "$TEST_TMP/prefix/include"
printf 'int main() { return 0; }\n' > "$TEST_TMP/t.cpp"
run "$TEST_TMP/prefix/bin/sim-clang++" --sim-gtest "$TEST_TMP/t.cpp" -o "$TEST_TMP/t"
expect_eq "$rc" 2 "exit status without libsim_gtest_main.a"
expect_contains "$err" "sim-clang++: error: sim::gtest_main (needed by --sim-gtest) not found at $TEST_TMP/prefix/lib/libsim_gtest_main.a" "message names the path"
expect_contains "$err" "build the project first" "message says what to do"
echo PASS
