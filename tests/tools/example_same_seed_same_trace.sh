# Whole-program determinism: one seed run 20 times, each a new process with
# ASLR left as the system has it, gives one trace hash: with races=0 (the
# program's own failure, shrunk), and for one seed with the race detector,
# whose shadow is kept by address (its verdict as found: a race's shrinking
# and flipped runs cost seconds a run).
source "$(dirname "$0")/lib.sh"
example="$1"
echo "kernel.randomize_va_space = $(cat /proc/sys/kernel/randomize_va_space)"
for options in races=0 shrink=0:race_flips=0; do
  seeds=(3 11)
  [[ $options == races=0 ]] || seeds=(3)
  for seed in "${seeds[@]}"; do
    hashes=""
    for attempt in $(seq 20); do
      rm -f "$TEST_TMP/r.json"
      SIM_OPTIONS="seed=$seed:$options:report_json=$TEST_TMP/r.json" timeout 60 "$SIM_EXAMPLES/$example" > /dev/null 2>&1
      [[ -s "$TEST_TMP/r.json" ]] || fail "seed $seed attempt $attempt wrote no report"
      hashes+="$(json_field "$TEST_TMP/r.json" "j['trace_hash']")"$'\n'
    done
    distinct="$(sort -u <<< "${hashes%$'\n'}")"
    expect_eq "$(wc -l <<< "$distinct")" 1 "distinct trace hashes for seed $seed: $distinct"
    [[ "$distinct" =~ ^[0-9a-f]{16}$ ]] || fail "trace hash '$distinct'"
    echo "$options, seed $seed: trace hash $distinct, 20 times"
  done
done
echo PASS
