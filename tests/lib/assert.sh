# assert.sh: the assertions the shell-scripted tests share (sourced by each
# test folder's lib.sh). A failing assertion prints "FAIL: ..." and exits 1;
# ctest's FAIL_REGULAR_EXPRESSION catches the line.
set -uo pipefail

fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

expect_eq() {  # actual expected what
  [[ "$1" == "$2" ]] || fail "$3: expected [$2], got [$1]"
}

expect_contains() {  # haystack needle what
  [[ "$1" == *"$2"* ]] || fail "$3: expected to contain [$2] in:
$1"
}

expect_not_contains() {  # haystack needle what
  [[ "$1" != *"$2"* ]] || fail "$3: expected not to contain [$2] in:
$1"
}

expect_matches() {  # actual extended-regex what
  [[ "$1" =~ $2 ]] || fail "$3: expected to match [$2] in:
$1"
}

# run CMD...: sets $out (stdout), $err (stderr), $rc.
run() {
  "$@" > "$TEST_TMP/stdout" 2> "$TEST_TMP/stderr"
  rc=$?
  out="$(cat "$TEST_TMP/stdout")"
  err="$(cat "$TEST_TMP/stderr")"
}

# json_field FILE EXPR: a Python expression over the parsed JSON `j`.
json_field() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
