# A binary not built with sim-clang++ runs its SIM_TESTs and says so once,
# on stderr, and not while listing tests.
source "$(dirname "$0")/lib.sh"
message="simthread: this test binary was not built with sim-clang++: only synchronisation calls are scheduling points, plain memory accesses are not"
run "$PASSING"
expect_eq "$rc" 0 "exit status"
expect_eq "$(grep -cF "$message" <<<"$err")" 1 "said once on stderr"
expect_not_contains "$out" "$message" "not on stdout"
run "$PASSING" --gtest_list_tests
expect_not_contains "$err$out" "$message" "not while listing"
echo PASS
