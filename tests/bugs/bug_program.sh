# bug_program.sh PROGRAM PREEMPTIONS HALF_FIXED [STRATEGY]: one program of the
# bug-finding suite, checked three ways through its explore driver
# (build/bin/bugs/PROGRAM*_sim):
#   - the bug is found within 10,000 seeds by STRATEGY (empty: the default),
#     its shrunk schedule (and, under the default strategy, its printed
#     replay command) reproduces the same execution (trace hash);
#   - dfs:PREEMPTIONS-1 runs every schedule without a failure and
#     dfs:PREEMPTIONS finds it: the bug needs exactly that many preemptions;
#   - PROGRAM_fixed passes 2,000 seeds of every strategy the table measures,
#     and every schedule dfs:PREEMPTIONS covers (at most dfs:2: dfs:3 of
#     treiber_stack_aba_fixed is a million schedules; the table runs it);
#   - PROGRAM_fixed has no data race in 2,000 seeds (SIM_OPTIONS=races=1);
#   - with HALF_FIXED=1, PROGRAM_half_fixed still fails within 10,000 seeds.
# The driver runs without the race detector otherwise (explore_driver.cpp):
# what is found, shrunk and counted is the bug's own failure.
source "$(dirname "$0")/../lib/assert.sh"
program="$1"
preemptions="$2"
half_fixed="$3"
strategy="${4:-}"
mkdir -p "$TEST_TMP"
bug="$SIM_BUGS/${program}_sim"
strategy_flags=()
[[ -n "$strategy" ]] && strategy_flags=(--strategy "$strategy")

field() {  # LINE KEY
  sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<< " $1"
}

# Found, shrunk, replayed.
run "$bug" "${strategy_flags[@]}" --seeds 10000 --report
expect_eq "$rc" 0 "driver exit status (stderr: $err)"
expect_eq "$(field "$out" found)" 1 "found within 10,000 seeds${strategy:+ by $strategy}: $out"
hash="$(field "$out" trace_hash)"
schedule="$(field "$out" schedule)"
expect_eq "$(field "$out" preemptions)" "$preemptions" "shrunk preemptions"
replay_line="$(sed -n 's/^  replay: //p' <<< "$err")"
expect_contains "$replay_line" "SIM_OPTIONS=" "the report's replay line"
run "$bug" --strategy "replay:$schedule" --seeds 1 --shrink 0
expect_eq "$(field "$out" found)" 1 "the shrunk schedule fails again"
expect_eq "$(field "$out" trace_hash)" "$hash" "the shrunk schedule's trace hash"
# The printed replay line runs the seed alone; it carries pct's estimate of
# the execution length (pct:D:K) when that moved before the failing seed
# (docs/bug-finding.md, "Replay"). Checked under the default strategy; the
# schedule above replays under every strategy.
if [[ -z "$strategy" ]]; then
  run bash -c "$replay_line"
  expect_eq "$(field "$out" found)" 1 "the replay line fails again: $replay_line"
  expect_eq "$(field "$out" trace_hash)" "$hash" "the replay line's trace hash"
fi

# Exactly PREEMPTIONS preemptions.
if (( preemptions > 0 )); then
  run "$bug" --strategy "dfs:$((preemptions - 1))" --seeds 1000000 --shrink 0
  expect_eq "$out" "$(printf 'start=0 found=0 tried=%s exhausted=1' "$(field "$out" tried)")" \
    "dfs:$((preemptions - 1)) runs every schedule without a failure"
fi
run "$bug" --strategy "dfs:$preemptions" --seeds 1000000 --shrink 0
expect_eq "$(field "$out" found)" 1 "dfs:$preemptions finds it: $out"

# The correct counterpart passes.
for fixed_strategy in random pct:2 pct:3 pct:4 pct:5 pos portfolio:pos,pct:5; do
  run "$SIM_BUGS/${program}_fixed_sim" --strategy "$fixed_strategy" --seeds 2000
  expect_eq "$out" "start=0 found=0 tried=2000 exhausted=0" "${program}_fixed under $fixed_strategy"
done
SIM_OPTIONS=races=1 run "$SIM_BUGS/${program}_fixed_sim" --seeds 2000
expect_eq "$out" "start=0 found=0 tried=2000 exhausted=0" "${program}_fixed: no data race in 2,000 seeds: $err"
fixed_bound=$(( preemptions < 2 ? preemptions : 2 ))
run "$SIM_BUGS/${program}_fixed_sim" --strategy "dfs:$fixed_bound" --seeds 1000000
expect_eq "$(field "$out" found)" 0 "${program}_fixed under dfs:$fixed_bound: $out"
expect_eq "$(field "$out" exhausted)" 1 "${program}_fixed: dfs:$fixed_bound runs every schedule within 1,000,000"

# The half-fixed variant still fails.
if [[ "$half_fixed" == 1 ]]; then
  run "$SIM_BUGS/${program}_half_fixed_sim" "${strategy_flags[@]}" --seeds 10000
  expect_eq "$(field "$out" found)" 1 "${program}_half_fixed still fails: $out"
fi
echo PASS
