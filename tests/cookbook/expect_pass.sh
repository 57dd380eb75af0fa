# expect_pass.sh [--env NAME=VALUE] BINARY FLAGS...: the SIM_TESTs FLAGS
# select pass every seed: exit status 0, at least one chunk test ran, none
# failed. (A --gtest_filter that matches nothing also exits 0; this catches it.)
source "$(dirname "$0")/lib.sh"
env_assignments=()
while [[ "${1:-}" == --env ]]; do env_assignments+=("$2"); shift 2; done
run env "${env_assignments[@]}" "$@"
[[ "$rc" -eq 0 ]] || fail "exit status $rc, expected 0: $out
$err"
passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\.$/\1/p' <<<"$out")
[[ -n "$passed" && "$passed" -ge 1 ]] || fail "no SIM_TEST ran: $out"
expect_not_contains "$out" "[  FAILED  ]" "no chunk failed"
expect_not_contains "$err" "not built with sim-clang++" "built with sim-clang++"
echo "PASS ($passed chunk tests passed)"
