# A failed assert() in main, and abort() called in a thread, are crashes of a
# sound process: sim-run's report is shrunk (a lost update needs exactly one
# preemption), says so, and its replay line gives the same shrunk execution
# (same trace hash) and dies by SIGABRT as the program would.
source "$(dirname "$0")/lib.sh"
[[ -e "$SIM_LIB/libsim_whole_program.a" ]] || { echo "no whole-program runtime yet"; echo PASS; exit 0; }
cat > "$TEST_TMP/assert_race.c" <<'C'
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
int x;
void* add(void* arg) { int t = x; x = t + 1; return arg; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
C
cat > "$TEST_TMP/abort_race.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
int x;
void* add(void* arg) { int t = x; x = t + 1; return arg; }
void* check(void* arg) { if (x != 2) abort(); return arg; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_create(&c, 0, check, 0);
  pthread_join(c, 0);
  return 0;
}
C
# The lost update is a data race on x, which the detector reports before the
# assert (with no preemption): off here, where the crash is what is shrunk.
export SIM_OPTIONS="${SIM_OPTIONS:+$SIM_OPTIONS:}races=0"
for program in assert_race abort_race; do
  run "$SIM_BIN/sim-clang" -O1 -g "$TEST_TMP/$program.c" -o "$TEST_TMP/$program"
  expect_eq "$rc$err" "0" "building $program"
  run "$SIM_BIN/sim-run" --seeds 100 --report-json "$TEST_TMP/$program.json" -- "$TEST_TMP/$program"
  expect_eq "$rc" 1 "$program: sim-run finds the lost update (output: $out $err)"
  seed="$(json_field "$TEST_TMP/$program.json" "j['failure']['seed']")"
  expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed $seed ($seed seeds passed first): crash (SIGABRT)" \
    "$program: summary"
  case "$program" in
    assert_race) expect_contains "$out" "assertion failed in T0: x == 2" "$program: the message" ;;
    abort_race) expect_contains "$out" "abort() called in T3" "$program: the message" ;;
  esac
  before="$(json_field "$TEST_TMP/$program.json" "j['failure']['preemptions_before_shrink']")"
  expect_eq "$(json_field "$TEST_TMP/$program.json" "j['failure']['preemptions']")" 1 \
    "$program: shrunk to the one preemption a lost update needs"
  (( before > 1 )) || fail "$program: seed $seed was found with $before preemptions; pick a program found with more"
  expect_contains "$out" "  preemptions: 1 (shrunk from $before)" "$program: the report tells both counts"
  expect_eq "$(grep -c '<- preempted' <<< "$out")" 1 "$program: the story tells one preemption"
  hash="$(json_field "$TEST_TMP/$program.json" "j['failure']['trace_hash']")"
  replay="$(sed -n 2p <<< "$out")"
  replay="${replay#replay: }"
  (cd "$TEST_TMP" && eval "$replay") > /dev/null 2> "$TEST_TMP/replay.stderr"
  expect_eq "$?" $((128 + 6)) "$program: the replay dies by SIGABRT"
  expect_contains "$(cat "$TEST_TMP/replay.stderr")" "  trace hash: $hash" "$program: the replay line gives the same execution"
  expect_contains "$(cat "$TEST_TMP/replay.stderr")" "  preemptions: 1 (shrunk from $before)" "$program: and the same report"
done
echo PASS
