# Without -g the wrapper adds line tables for report sites; any -g the user
# gives is kept as the only debug option.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" --showme -c foo.cpp
expect_contains "$out" "-gline-tables-only -fdebug-info-for-profiling" "no -g"
for g in -g -g3 -ggdb -gline-tables-only -g0; do
  run "$SIM_BIN/sim-clang++" --showme "$g" -c foo.cpp
  expect_not_contains "$out" "-fdebug-info-for-profiling" "user gave $g"
  expect_contains "$out" " $g -c foo.cpp" "user's $g kept"
done
echo PASS
