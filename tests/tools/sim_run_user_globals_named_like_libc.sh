# A C program may name its globals send, write, open, ... (valid C), and the
# runtime linked into it still calls libc's functions, not the user's
# variables, and so does libstdc++, which sim-clang links for the runtime.
# Before, the fork server called the user's `send` (killed by SIGSEGV), and
# shrinking a failure read its outcome file through the user's `read`.
# Checked: the correct program passes every seed and its replay, and the racy
# one is still found, reported, shrunk and replayed: its lost update with
# races=0, and by default its data race (whose report runs the symbolizer).
source "$(dirname "$0")/lib.sh"
[[ -e "$SIM_LIB/libsim_whole_program.a" ]] || { echo "no whole-program runtime yet"; echo PASS; exit 0; }
cat > "$TEST_TMP/globals.c" <<'C'
#include <pthread.h>
// Names of functions the runtime calls (POSIX, so valid C globals)...
_Bool send, recv, receive;
int write = 1, read = 2, open = 3, close = 4, pipe = 5, kill = 6, signal = 7, access = 8, dup2 = 9, waitpid = 10,
    readlink = 11, getpid = 12, getppid = 13, prctl = 14, personality = 15, execv = 16, rmdir = 17,
    mkdtemp = 18, setpgid = 19, pread = 20, sigaction = 21, sigaltstack = 22, mmap = 23, mprotect = 24,
    posix_spawn = 25, getuid = 26, environ = 27, dl_iterate_phdr = 28;
// ...and of ISO C functions it calls, which the compiler knows as builtins:
// the same symbols, through asm labels.
long getenv_ __asm__("getenv") = 29, snprintf_ __asm__("snprintf") = 30, fprintf_ __asm__("fprintf") = 31,
     fputs_ __asm__("fputs") = 32, fflush_ __asm__("fflush") = 33, strlen_ __asm__("strlen") = 34,
     strcmp_ __asm__("strcmp") = 35, memchr_ __asm__("memchr") = 36, exit_ __asm__("exit") = 37,
     remove_ __asm__("remove") = 38, strtol_ __asm__("strtol") = 39;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;
static void* work(void* arg) {
  (void)arg;
#ifndef RACY
  pthread_mutex_lock(&lock);
#endif
  int seen = count;
  count = seen + 1;
  send = 1;
#ifndef RACY
  pthread_mutex_unlock(&lock);
#endif
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  receive = send;
  long untouched = write + read + open + close + pipe + kill + signal + access + dup2 + waitpid + readlink +
                   getpid + getppid + prctl + personality + execv + rmdir + mkdtemp + setpgid + pread +
                   sigaction + sigaltstack + mmap + mprotect + posix_spawn + getuid + environ +
                   dl_iterate_phdr + getenv_ + snprintf_ + fprintf_ + fputs_ + fflush_ + strlen_ + strcmp_ +
                   memchr_ + exit_ + remove_ + strtol_;
  return count == 2 && receive && untouched == 39 * 40 / 2 ? 0 : 1;
}
C
run "$SIM_BIN/sim-clang" -O1 -g "$TEST_TMP/globals.c" -o "$TEST_TMP/correct"
expect_eq "$rc$out$err" "0" "building the correct program"
run "$SIM_BIN/sim-clang" -O1 -g -DRACY "$TEST_TMP/globals.c" -o "$TEST_TMP/racy"
expect_eq "$rc$out$err" "0" "building the racy program"

run "$TEST_TMP/correct"
expect_eq "$rc" 0 "the correct program on real threads: $err"
run "$SIM_BIN/sim-run" --seeds 50 -- "$TEST_TMP/correct"
expect_eq "$rc:$out" "0:sim-run: 50 seeds passed" "sim-run over the correct program: $err"
run env SIM_OPTIONS="seed=7:report_json=$TEST_TMP/correct.json" "$TEST_TMP/correct"
expect_eq "$rc" 0 "seed 7 replayed alone: $err"
expect_eq "$(json_field "$TEST_TMP/correct.json" "j['verdict']")" "pass" "seed 7's verdict"

SIM_OPTIONS=races=0 run "$SIM_BIN/sim-run" --seeds 50 -- "$TEST_TMP/racy"
expect_eq "$rc" 1 "sim-run finds the lost update: $out $err"
summary="$(sed -n 1p <<< "$out")"
[[ "$summary" =~ ^"sim-run: failed at seed "([0-9]+)" ".*": failure"$ ]] || fail "summary: $summary"
seed="${BASH_REMATCH[1]}"
expect_eq "$(sed -n 2p <<< "$out")" "replay: SIM_OPTIONS=races=0:seed=$seed $TEST_TMP/racy" "replay line"
expect_contains "$out" "SUMMARY: simthread: failure: main returned 1" "the failing run's report"
expect_not_contains "$out$err" "SIGSEGV" "no crash"
run env SIM_OPTIONS="seed=$seed:races=0:report_json=$TEST_TMP/racy.json" "$TEST_TMP/racy"
expect_eq "$rc" 1 "the replay fails the same way: $err"
expect_contains "$err" "SUMMARY: simthread: failure: main returned 1" "the replayed report"
expect_contains "$err" "  schedule: S1-" "the replay shrank the failure and printed its schedule"
expect_eq "$(json_field "$TEST_TMP/racy.json" "j['verdict']")" "failure" "the replay's verdict"

run "$SIM_BIN/sim-run" --seeds 50 -- "$TEST_TMP/racy"
expect_eq "$rc" 1 "sim-run finds the data race: $out $err"
[[ "$(sed -n 1p <<< "$out")" =~ ^"sim-run: failed at seed "([0-9]+)" ".*": data race"$ ]] || fail "summary: $out"
seed="${BASH_REMATCH[1]}"
expect_contains "$out" "SUMMARY: simthread: data race: work " "the race's report, symbolized"
expect_not_contains "$out$err" "SIGSEGV" "no crash"
run env SIM_OPTIONS="seed=$seed" "$TEST_TMP/racy"
expect_eq "$rc" 66 "the replay reports the race again: $err"
echo PASS
