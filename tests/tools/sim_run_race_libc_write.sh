# A buffer libc writes for a thread is written to the race detector
# (issue 30): strerror_r fills a shared buffer in T1 while T0 reads it.
# Three-way: no lock (BUGGY) and a lock on the writer's side only
# (HALF_FIXED) are reported with strerror_r as one access and the read as
# the other, and replayed; both under the lock (FIXED) pass. An error
# number glibc has a message for is not written into the buffer (the GNU
# strerror_r returns its own string), so the program asks for one it has
# none for.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
cat > describe.cpp <<'CPP'
#include <cstring>
#include <mutex>
#include <thread>
char message[64];
std::mutex lock;
char first = 0;
void Describe() {
#if defined(FIXED) || defined(HALF_FIXED)
  std::lock_guard guard(lock);
#endif
  if (strerror_r(12345, message, sizeof message) != message) __builtin_trap();
}
int main() {
  std::thread describer(Describe);
  {
#if defined(FIXED)
    std::lock_guard guard(lock);
#endif
    first = message[0];
  }
  describer.join();
}
CPP
build_variants describe.cpp describe BUGGY HALF_FIXED FIXED
for variant in BUGGY HALF_FIXED; do
  run "$SIM_BIN/sim-run" --seeds 100 -- "./describe_$variant"
  expect_eq "$rc" 1 "$variant: the race fails a seed: $out $err"
  report="$out$err"
  expect_matches "$report" "(W|Previous w)rite of size [0-9]+ at 0x[0-9a-f]+ by thread T1:
    #0 strerror_r" "$variant: strerror_r's write of 'Unknown error 12345'"
  expect_matches "$report" "(R|Previous r)ead of size 1 at 0x[0-9a-f]+ by thread T0:" "$variant: main's read"
  expect_matches "$report" "Location is global 'message' of size 64" "$variant: the buffer"
  expect_race_replays "$report" "$variant"
done
run "$SIM_BIN/sim-run" --seeds 1000 -- ./describe_FIXED
expect_eq "$rc" 0 "FIXED: no race in 1000 seeds: $out $err"
echo PASS
