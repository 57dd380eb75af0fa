# Chunk tests are named for their seeds, reflect --sim_seeds and chunk=, and
# --gtest_list_tests prints nothing else on stdout (gtest_discover_tests
# reads it).
source "$(dirname "$0")/lib.sh"
expected='Counted.
  Executions/seeds_0_99  # GetParam() = seeds=[0,100)
  Executions/seeds_100_199  # GetParam() = seeds=[100,200)
  Executions/seeds_200_249  # GetParam() = seeds=[200,250)'
run "$PASSING" --gtest_list_tests --gtest_filter='Counted.*' --sim_seeds=250
expect_eq "$rc" 0 "exit status"
expect_eq "$out" "$expected" "--sim_seeds=250 (chunk defaults to 100)"
SIM_OPTIONS=seeds=250:chunk=100 run "$PASSING" --gtest_list_tests --gtest_filter='Counted.*'
expect_eq "$out" "$expected" "SIM_OPTIONS=seeds=250:chunk=100"
SIM_OPTIONS=seeds=7:chunk=3 run "$PASSING" --gtest_list_tests --gtest_filter='Counted.*' --sim_seeds=250 --sim_chunk=100
expect_eq "$out" "$expected" "flags override SIM_OPTIONS"
run "$PASSING" --gtest_list_tests --gtest_filter='Counted.*' --sim_first_seed=1000 --sim_seeds=5 --sim_chunk=2
expect_eq "$out" 'Counted.
  Executions/seeds_1000_1001  # GetParam() = seeds=[1000,1002)
  Executions/seeds_1002_1003  # GetParam() = seeds=[1002,1004)
  Executions/seeds_1004_1004  # GetParam() = seeds=[1004,1005)' "--sim_first_seed"
run "$PASSING" --gtest_list_tests
first=$(head -n1 <<<"$out")
expect_eq "$first" "LockedCounter." "nothing on stdout before the list"
echo PASS
