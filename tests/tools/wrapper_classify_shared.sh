# -shared compiles with the plugin but links no runtime: the executable that
# loads the library carries it (and exports it).
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --showme -shared -fPIC foo.cpp -o libfoo.so
expect_eq "$rc" 0 "exit status"
expect_contains "$out" "-fpass-plugin=$SIM_LIB/libSimPass.so" "plugin"
expect_not_contains "$out" "libsimrt.a" "no runtime in a shared library"
expect_not_contains "$out" "whole-archive" "no runtime in a shared library"
echo PASS
