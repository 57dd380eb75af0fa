# -c and -S compile only: plugin, frame pointers, include dir; no runtime.
source "$(dirname "$0")/lib.sh"
for flag in -c -S; do
  run "$SIM_BIN/sim-clang++" --showme "$flag" foo.cpp -o foo.o
  expect_eq "$rc" 0 "--showme $flag exit status"
  expect_eq "$err" "" "--showme $flag stderr"
  expect_contains "$out" "clang++-19 -I$SIM_INCLUDE -fpass-plugin=$SIM_LIB/libSimPass.so -fno-omit-frame-pointer -fno-optimize-sibling-calls" "$flag command"
  expect_contains "$out" " $flag foo.cpp -o foo.o" "$flag keeps the user's arguments in order"
  expect_not_contains "$out" "libsimrt.a" "$flag links no runtime"
  expect_not_contains "$out" "--dynamic-list" "$flag links no runtime"
done
echo PASS
