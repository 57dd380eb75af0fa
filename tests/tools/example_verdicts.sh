# example_verdicts.sh: the verdict sim-run gives each buggy example (sourced).
# Three of the bugs are data races, which the race detector (on by default)
# reports before main's own check or glibc's abort; with races=0 they end
# as "failure" (main returns 1: lazy_registry, unlocked_counter) and
# "crash (SIGABRT)" (a double free: refcount_double_delete), which
# sim_run_shrinks_whole_programs.sh and sim_run_libc_crash_shrunk.sh check.
expected_verdict() {
  case "$1" in
    lazy_registry|unlocked_counter|refcount_double_delete) echo "data race" ;;
    abba_deadlock) echo "deadlock" ;;
    *) fail "no expected verdict for $1" ;;
  esac
}
