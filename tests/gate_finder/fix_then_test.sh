#!/usr/bin/env bash
# fix_then_test.sh: what a user does with a finding, end to end, on one
# version of a bench/bugs program: run sim-gate-finder --fix on a copy, take
# the SIM_TEST skeleton it printed, write the invariant into it, build it with
# sim-clang++ --sim-gtest and run the first seed only. A buggy version must
# fail there (the gate holds the window open, so no search is needed); the
# fixed version must pass with the same test.
#
#   fix_then_test.sh --program FILE [--define MACRO] --object NAME --expect fail|pass
#                    --invariant LINE [--construct LINE] [--arguments TEXT]
#
# --object picks the finding (its "object", e.g. Database::pool_);
# --construct replaces the skeleton's `Class object;` line and --arguments
# the placeholder arguments of its calls, for a class or method that needs them.
# The finder runs with --suppressed, so a fixed version whose window one lock
# scope closes is gated at the same place and runs the same test.
# Environment: SIM_BIN (build/bin), TEST_TMP (scratch directory).
set -euo pipefail

program= define= object= expect= invariant= construct= arguments=
while [ $# -gt 0 ]; do
  case "$1" in
    --program) program=$2; shift 2 ;;
    --define) define=$2; shift 2 ;;
    --object) object=$2; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    --invariant) invariant=$2; shift 2 ;;
    --construct) construct=$2; shift 2 ;;
    --arguments) arguments=$2; shift 2 ;;
    *) echo "FAIL: fix_then_test.sh: unknown argument $1"; exit 1 ;;
  esac
done
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
cp "$program" "$TEST_TMP/program.cpp"
defines=()
[ -n "$define" ] && defines=("-D$define")

"$SIM_BIN/sim-gate-finder" --fix --suppressed --format=json "$TEST_TMP/program.cpp" -- -std=c++20 "${defines[@]}" \
  > "$TEST_TMP/findings.out" || fail "sim-gate-finder exited $?"
# The JSON array, then the --fix summary line.
sed -n '/^sim-gate-finder: inserted/!p' "$TEST_TMP/findings.out" > "$TEST_TMP/findings.json"
grep -q '^sim-gate-finder: inserted 1 gate$' "$TEST_TMP/findings.out" ||
  fail "expected --fix to insert 1 gate: $(tail -1 "$TEST_TMP/findings.out")"
grep -q 'SIM_GATE("' "$TEST_TMP/program.cpp" || fail "no SIM_GATE in the fixed program"

python3 - "$TEST_TMP/findings.json" "$object" "$invariant" "$construct" "$arguments" > "$TEST_TMP/skeleton.cpp" <<'PY'
import json, sys
findings, wanted, invariant, construct, arguments = json.load(open(sys.argv[1])), *sys.argv[2:]
chosen = [f for f in findings if f["object"] == wanted and f["test"]]
if not chosen:
    sys.exit("FAIL: no finding with a test on " + wanted + ": " + ", ".join(f["object"] for f in findings))
test = chosen[0]["test"]
placeholder = [line for line in test.splitlines() if "GTEST_FAIL()" in line]
if len(placeholder) != 1:
    sys.exit("FAIL: the skeleton has no invariant placeholder line")
test = test.replace(placeholder[0], "  " + invariant.rstrip(";") + ";")
if construct:
    lines = test.splitlines()
    lines = ["  " + construct.rstrip(";") + ";" if line.strip().endswith("object;  // build it as the code under test does") else line
             for line in lines]
    test = "\n".join(lines) + "\n"
if arguments:
    test = test.replace("(" + chosen[0]["test"].split("object.", 1)[1].split("(", 1)[1].split(")", 1)[0] + ")",
                        "(" + arguments + ")")
print(test)
PY

cat > "$TEST_TMP/gate_test.cpp" <<CPP
// The program under test, its main() renamed, then the generated SIM_TEST.
#include <chrono>
#include <thread>

#include <sim/gtest.h>

#define main program_main
#include "program.cpp"
#undef main

$(cat "$TEST_TMP/skeleton.cpp")
CPP

"$SIM_BIN/sim-clang++" --sim-gtest -std=c++20 -O1 -g "${defines[@]}" "$TEST_TMP/gate_test.cpp" -o "$TEST_TMP/gate_test" \
  > "$TEST_TMP/build.log" 2>&1 || { cat "$TEST_TMP/build.log"; fail "the generated test did not build"; }

set +e
"$TEST_TMP/gate_test" --sim_seeds=1 > "$TEST_TMP/run.log" 2>&1
status=$?
set -e
case "$expect" in
  fail)
    [ $status -ne 0 ] || { cat "$TEST_TMP/run.log"; fail "the buggy version passed its first seed"; }
    grep -q 'failed at seed 0' "$TEST_TMP/run.log" || { cat "$TEST_TMP/run.log"; fail "no failure at seed 0"; }
    echo "the first seed fails: $(grep -m1 'failed at seed' "$TEST_TMP/run.log")"
    ;;
  pass)
    [ $status -eq 0 ] || { cat "$TEST_TMP/run.log"; fail "the fixed version failed"; }
    grep -q '\[  PASSED  \] 1 test' "$TEST_TMP/run.log" || { cat "$TEST_TMP/run.log"; fail "the SIM_TEST did not run"; }
    echo "the first seed passes"
    ;;
  *) fail "--expect must be fail or pass" ;;
esac
echo PASS
