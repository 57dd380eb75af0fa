# example_verdicts.sh: the verdict sim-run gives each buggy example (sourced).
expected_verdict() {
  case "$1" in
    lazy_registry|unlocked_counter) echo "failure" ;;   # main returns 1: the report says "main returned 1"
    refcount_double_delete) echo "crash (SIGABRT)" ;;          # glibc: double free
    abba_deadlock) echo "deadlock" ;;
    *) fail "no expected verdict for $1" ;;
  esac
}
