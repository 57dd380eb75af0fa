# A failing SIM_TEST exits non-zero and fails once per chunk, at the
# SIM_TEST's own line, with the report block and a replay line; the seed and
# the replay command are test properties in --gtest_output=xml.
source "$(dirname "$0")/lib.sh"
run "$FAILING" --gtest_filter='Failing.OverdrawnAccount/*' --gtest_output="xml:$TEST_TMP/out.xml"
[[ "$rc" -ne 0 ]] || fail "a failing SIM_TEST exited 0"
line=$(grep -n '^SIM_TEST(Failing, OverdrawnAccount)' "$(dirname "$0")/failing_tests.cpp" | cut -d: -f1)
expect_contains "$out" "failing_tests.cpp:$line: Failure" "failure at the SIM_TEST's line"
expect_contains "$out" "SIM_TEST Failing.OverdrawnAccount failed at seed " "what failed"
expect_eq "$(grep -c '^WARNING: simthread: failure (seed=[0-9]*, step=[0-9]*)$' <<<"$out")" 1 "one report block"
expect_eq "$(grep -c '^==================$' <<<"$out")" 2 "the block's two rulers"
expect_contains "$out" "(in T0): Expected: (account.balance()) >= (0), actual: -60 vs 0" "the EXPECT's message, with its thread"
expect_contains "$out" "  threads at failure:" "threads"
expect_contains "$out" "  trace hash: " "trace hash"
expect_contains "$out" "SUMMARY: simthread: failure: failing_tests.cpp:" "summary"
seed=$(sed -n 's/^WARNING: simthread: failure (seed=\([0-9]*\),.*/\1/p' <<<"$out")
replay=$(sed -n 's/^  replay: //p' <<<"$out")
expect_eq "$replay" "$FAILING --gtest_filter=Failing.OverdrawnAccount/seeds_0_99 --sim_replay=$seed" "replay line"
xml=$(cat "$TEST_TMP/out.xml")
expect_contains "$xml" "<property name=\"sim_seed\" value=\"$seed\"/>" "sim_seed property"
expect_contains "$xml" "<property name=\"sim_replay\" value=\"$replay\"/>" "sim_replay property"
echo PASS
