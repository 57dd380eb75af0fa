# -E, -M and -MM preprocess only: the include dir, no plugin, no runtime.
source "$(dirname "$0")/lib.sh"
for flag in -E -M -MM; do
  run "$SIM_BIN/sim-clang++" --showme "$flag" foo.cpp
  expect_eq "$rc" 0 "--showme $flag exit status"
  expect_eq "$out" "clang++-19 -I$SIM_INCLUDE $flag foo.cpp" "$flag command"
done
# -E wins over a -c given with it, as in clang.
run "$SIM_BIN/sim-clang++" --showme -c -E foo.cpp
expect_eq "$out" "clang++-19 -I$SIM_INCLUDE -c -E foo.cpp" "-c -E command"
# Preprocessing finds sim/sim.h.
printf '#include <sim/sim.h>\nint x;\n' > "$TEST_TMP/inc.cpp"
run "$SIM_BIN/sim-clang++" -std=c++20 -E "$TEST_TMP/inc.cpp"
expect_eq "$rc" 0 "-E of a file including sim/sim.h: $err"
expect_contains "$out" "explore" "preprocessed output has sim.h"
echo PASS
