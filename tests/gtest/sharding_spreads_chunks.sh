# GTEST_TOTAL_SHARDS=3 with GTEST_SHARD_INDEX=0,1,2 runs disjoint sets of
# chunk tests that together are all of them.
source "$(dirname "$0")/lib.sh"
flags=(--sim_seeds=1000 --sim_chunk=100 --gtest_filter='Counted.*:LockedCounter.*')
run "$PASSING" "${flags[@]}"
expect_eq "$rc" 0 "unsharded run"
grep '^\[ RUN      \]' <<<"$out" | sort > "$TEST_TMP/all"
expect_eq "$(wc -l < "$TEST_TMP/all")" 31 "three SIM_TESTs of 10 chunks and one plain TEST"
: > "$TEST_TMP/union"
for index in 0 1 2; do
  GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$index run "$PASSING" "${flags[@]}"
  expect_eq "$rc" 0 "shard $index"
  grep '^\[ RUN      \]' <<<"$out" > "$TEST_TMP/shard$index"
  [[ -s "$TEST_TMP/shard$index" ]] || fail "shard $index ran nothing"
  cat "$TEST_TMP/shard$index" >> "$TEST_TMP/union"
done
expect_eq "$(sort "$TEST_TMP/union" | uniq -d)" "" "no chunk runs in two shards"
expect_eq "$(sort "$TEST_TMP/union")" "$(cat "$TEST_TMP/all")" "the shards together run every chunk"
echo PASS
