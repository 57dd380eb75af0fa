# --report-json: the documented shape on a pass and on a failure, valid JSON
# with strings escaped; failure fields come from the child's report_json.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-run" --seeds 7 --start 3 --report-json "$TEST_TMP/pass.json" -- "$STANDIN"
expect_eq "$rc" 0 "pass exit status"
python3 - "$TEST_TMP/pass.json" <<'PY' || fail "pass JSON: $(cat "$TEST_TMP/pass.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j == {"verdict": "pass", "seeds_run": 7, "first_seed": 3, "timeout_seconds": 60, "failure": None}, j
PY
run env STANDIN_FAIL_SEEDS=6 STANDIN_MODE=verdict66 STANDIN_VERDICT="step limit" \
  "$SIM_BIN/sim-run" --seeds 50 --start 3 --jobs 2 --report-json "$TEST_TMP/fail.json" -- "$STANDIN" "it's" 'a "b"'
expect_eq "$rc" 1 "fail exit status"
python3 - "$TEST_TMP/fail.json" "$STANDIN" <<'PY' || fail "fail JSON: $(cat "$TEST_TMP/fail.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert set(j) == {"verdict", "seeds_run", "first_seed", "timeout_seconds", "failure"}, j
assert j["verdict"] == "step limit" and j["seeds_run"] == 4 and j["first_seed"] == 3, j
f = j["failure"]
assert set(f) == {"seed", "kind", "message", "replay", "schedule", "trace_hash", "preemptions", "preemptions_before_shrink"}, f
assert f["seed"] == 6 and f["kind"] == "step limit", f
assert f["message"] == 'standin says "step limit" at seed 6', f
assert f["schedule"] == "S1-standin6" and f["trace_hash"] == "0000000000000006", f
assert f["replay"] == "SIM_OPTIONS=seed=6 " + sys.argv[2] + " 'it'\\''s' 'a \"b\"'", f["replay"]
PY
# Escaping survives the round trip; a byte that is not UTF-8 becomes U+FFFD.
run env STANDIN_FAIL_SEEDS=0 STANDIN_MODE=verdict66 STANDIN_MESSAGE=$'tab\\there \\u00e9 \xff \\\\ \\"q\\" \\u0001' \
  "$SIM_BIN/sim-run" --seeds 1 --report-json "$TEST_TMP/escape.json" -- "$STANDIN"
python3 - "$TEST_TMP/escape.json" <<'PY' || fail "escape JSON: $(cat "$TEST_TMP/escape.json")"
import json, sys
j = json.load(open(sys.argv[1], encoding="utf-8"))
assert j["failure"]["message"] == 'tab\there \u00e9 \ufffd \\ "q" \u0001', repr(j["failure"]["message"])
PY
echo PASS
