# Whole-program determinism: one seed run 20 times, each a new process with
# ASLR left as the system has it, gives one trace hash.
source "$(dirname "$0")/lib.sh"
example="$1"
echo "kernel.randomize_va_space = $(cat /proc/sys/kernel/randomize_va_space)"
for seed in 3 11; do
  hashes=""
  for attempt in $(seq 20); do
    rm -f "$TEST_TMP/r.json"
    SIM_OPTIONS="seed=$seed:report_json=$TEST_TMP/r.json" timeout 60 "$SIM_EXAMPLES/$example" > /dev/null 2>&1
    [[ -s "$TEST_TMP/r.json" ]] || fail "seed $seed attempt $attempt wrote no report"
    hashes+="$(json_field "$TEST_TMP/r.json" "j['trace_hash']")"$'\n'
  done
  distinct="$(sort -u <<< "${hashes%$'\n'}")"
  expect_eq "$(wc -l <<< "$distinct")" 1 "distinct trace hashes for seed $seed: $distinct"
  [[ "$distinct" =~ ^[0-9a-f]{16}$ ]] || fail "trace hash '$distinct'"
  echo "seed $seed: trace hash $distinct, 20 times"
done
echo PASS
