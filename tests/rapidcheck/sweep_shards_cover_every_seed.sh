# A sweep of --sim_seeds=1000 --sim_chunk=100 split by gtest's sharding
# protocol over 4 shards (docs/scaling.md): the shards run disjoint chunk
# tests that together run every seed exactly once, each writes its own
# JUnit XML, and a failure found on one shard replays from its printed
# command alone, in a clean environment (no GTEST_SHARD_* variables).
# ctest sets SWEEP (the SIM_TEST binary) and TEST_TMP.
source "$(dirname "$0")/../lib/assert.sh"
unset SIM_OPTIONS GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX SWEEP_RECORD
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
flags=(--sim_seeds=1000 --sim_chunk=100)

# gtest does not apply sharding to --gtest_list_tests: every shard lists all
# chunks, so the listing cannot tell what a shard runs; the record can.
run "$SWEEP" "${flags[@]}" --gtest_list_tests --gtest_filter='Sweep.*'
all_listed=$out
GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=1 run "$SWEEP" "${flags[@]}" --gtest_list_tests --gtest_filter='Sweep.*'
expect_eq "$out" "$all_listed" "a shard's listing is the unsharded listing"
expect_eq "$(grep -c 'seeds_' <<<"$all_listed")" 10 "1000 seeds in chunks of 100 are 10 chunk tests"

for index in 0 1 2 3; do
  SWEEP_RECORD="$TEST_TMP/record$index" GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$index \
    run "$SWEEP" "${flags[@]}" --gtest_filter='Sweep.*' "--gtest_output=xml:$TEST_TMP/shard$index.xml"
  expect_eq "$rc" 0 "shard $index"
  [[ -s "$TEST_TMP/record$index" ]] || fail "shard $index ran nothing"
  [[ -s "$TEST_TMP/shard$index.xml" ]] || fail "shard $index wrote no XML"
done

# Every recorded chunk ran each of its seeds once, and the chunks of all
# shards together are [0, 1000), each seed in exactly one shard.
python3 - "$TEST_TMP" <<'PY' || fail "the shards do not divide the seeds"
import re, sys, xml.etree.ElementTree as ET
tmp = sys.argv[1]
owner = {}
for index in range(4):
    xml_chunks = {case.get("name") for case in ET.parse(f"{tmp}/shard{index}.xml").iter("testcase")}
    recorded = set()
    executions = {}
    for line in open(f"{tmp}/record{index}"):
        executions[line.strip()] = executions.get(line.strip(), 0) + 1
    for name, count in executions.items():
        first, last = map(int, re.fullmatch(r"RecordsEachExecution/seeds_(\d+)_(\d+)", name).groups())
        if int(count) != last - first + 1:
            sys.exit(f"shard {index}: {name} ran {count} executions")
        for seed in range(first, last + 1):
            if seed in owner:
                sys.exit(f"seed {seed} ran in shards {owner[seed]} and {index}")
            owner[seed] = index
        recorded.add(name)
    if recorded != xml_chunks:
        sys.exit(f"shard {index}: XML {sorted(xml_chunks)} but ran {sorted(recorded)}")
if sorted(owner) != list(range(1000)):
    sys.exit(f"{1000 - len(owner)} seeds ran in no shard")
PY

# A failure on shard 3 replays from its printed command alone: another
# directory, no shard variables, nothing but the command line.
GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=3 run "$SWEEP" "${flags[@]}" --gtest_filter='SweepRacy.*'
[[ "$rc" -ne 0 ]] || fail "the racy SIM_TEST passed on shard 3: $out"
replay=$(sed -n 's/^  replay: //p' <<<"$out" | head -1)
hash=$(sed -n 's/^  trace hash: //p' <<<"$out" | head -1)
[[ -n "$replay" && -n "$hash" ]] || fail "no replay/hash in: $out"
expect_not_contains "$replay" "SHARD" "the replay command names no shard"
mkdir -p "$TEST_TMP/elsewhere"
(cd "$TEST_TMP/elsewhere" && env -i PATH=/usr/bin:/bin bash -c "$replay") > "$TEST_TMP/replay.out" 2>&1
[[ $? -ne 0 ]] || fail "the replay passed: $(cat "$TEST_TMP/replay.out")"
replayed=$(cat "$TEST_TMP/replay.out")
expect_contains "$replayed" "  trace hash: $hash" "the replay is the same execution"
expect_eq "$(grep -c '^\[ RUN      \]' <<<"$replayed")" 1 "the replay runs one chunk"
echo PASS
