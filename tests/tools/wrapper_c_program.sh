# sim-clang builds a C program with pthreads (linking libstdc++ for the
# runtime), which runs normally without SIM_OPTIONS and in a world with it.
source "$(dirname "$0")/lib.sh"
[[ -e "$SIM_LIB/libsim_whole_program.a" ]] || { echo "no whole-program runtime yet"; echo PASS; exit 0; }
cat > "$TEST_TMP/count.c" <<'C'
#include <pthread.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;
static void* work(void* arg) {
  (void)arg;
  for (int i = 0; i < 5; ++i) { pthread_mutex_lock(&lock); ++count; pthread_mutex_unlock(&lock); }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return count == 10 ? 0 : 1;
}
C
run "$SIM_BIN/sim-clang" -O1 "$TEST_TMP/count.c" -o "$TEST_TMP/count"
expect_eq "$rc$out$err" "0" "building a C program"
run "$TEST_TMP/count"
expect_eq "$rc" 0 "running it on real threads: $err"
run env SIM_OPTIONS="seed=4:report_json=$TEST_TMP/r.json" "$TEST_TMP/count"
expect_eq "$rc" 0 "running it in a world: $err"
expect_eq "$(json_field "$TEST_TMP/r.json" "j['verdict']")" "pass" "verdict"
echo PASS
