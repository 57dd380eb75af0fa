# A free races with another thread's access to its block (issue 30): free,
# delete and realloc are a write of the whole block to the race detector,
# as ThreadSanitizer takes them. Three-way: main deletes a reading that a
# reader still reads (BUGGY), or after waiting for a flag the reader raises
# before its read (HALF_FIXED: nothing orders the read before the delete);
# both are reported with both sites, replayed, and flipped. FIXED raises the
# flag after the read, and passes. Then realloc moving a block, and free()
# called directly.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
cat > reading.cpp <<'CPP'
#include <atomic>
#include <thread>
struct Reading {
  int value = 42;
};
std::atomic<bool> started{false};
int seen = 0;  // the reader's alone
void Read(const Reading* reading) {
#if defined(HALF_FIXED)
  started.store(true, std::memory_order_release);
#endif
  seen = reading->value;
#if defined(FIXED)
  started.store(true, std::memory_order_release);
#endif
}
int main() {
  auto* reading = new Reading;
  std::thread reader(Read, reading);
#if defined(HALF_FIXED) || defined(FIXED)
  while (!started.load(std::memory_order_acquire)) std::this_thread::yield();
#endif
  delete reading;
  reader.join();
}
CPP
build_variants reading.cpp reading BUGGY HALF_FIXED FIXED

for variant in BUGGY HALF_FIXED; do
  run "$SIM_BIN/sim-run" --seeds 100 -- "./reading_$variant"
  expect_eq "$rc" 1 "$variant: the race fails a seed: $out $err"
  report="$out$err"
  expect_contains "$report" ": data race" "$variant: sim-run names the verdict"
  expect_matches "$report" "  Write of size [0-9]+ at 0x[0-9a-f]+ by thread T0:" "$variant: the free, a write of the block (its usable size)"
  expect_matches "$report" "    #0 free" "$variant: the free's frame"
  expect_matches "$report" "    #1 main .*reading.cpp:23" "$variant: the delete in main"
  expect_matches "$report" "  Previous read of size 4 at 0x[0-9a-f]+ by thread T1:" "$variant: the reader's access"
  expect_matches "$report" "    #0 Read\(Reading const\*\) .*reading.cpp:12" "$variant: the read's site"
  expect_matches "$report" "  (no failure running on|running on|flipping the order|cannot flip)" "$variant: does it matter"
  expect_matches "$report" "SUMMARY: simthread: data race: free" "$variant: the summary"
  expect_race_replays "$report" "$variant"
  flipped_replay="$(sed -n 's/^ *that run.s replay: //p' replay.out)"
  if [ -n "$flipped_replay" ]; then
    eval "$flipped_replay" > flipped.out 2>&1
    flipped_rc=$?
    [ "$flipped_rc" -ne 0 ] && [ "$flipped_rc" -ne 66 ] ||
      fail "$variant: the flipped replay fails, and not by a race: $flipped_replay ($flipped_rc): $(cat flipped.out)"
  fi
done
run "$SIM_BIN/sim-run" --seeds 1000 -- ./reading_FIXED
expect_eq "$rc" 0 "FIXED: no race in 1000 seeds: $out $err"

# realloc that moves the block frees the old one; free() called directly.
cat > buffer.cpp <<'CPP'
#include <cstdlib>
#include <cstring>
#include <thread>
char* buffer = nullptr;
char first = 0;  // the reader's alone
int main() {
  buffer = static_cast<char*>(std::malloc(16));
  std::strcpy(buffer, "fifteen bytes..");
  std::thread reader([] { first = buffer[3]; });
#if defined(REALLOC)
  char* moved = static_cast<char*>(std::realloc(buffer, 1 << 20));
  std::free(moved);
#else
  std::free(buffer);
#endif
  reader.join();
}
CPP
for how in REALLOC FREE; do
  run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g -D$how buffer.cpp -o "buffer_$how"
  expect_eq "$rc" 0 "sim-clang++ -D$how: $err"
  run "$SIM_BIN/sim-run" --seeds 100 -- "./buffer_$how"
  expect_eq "$rc" 1 "$how: the race fails a seed: $out $err"
  expect_matches "$out$err" "  Write of size [0-9]+ at 0x[0-9a-f]+ by thread T0:" "$how: a write of the block"
  expect_matches "$out$err" "    #0 (realloc|free)" "$how: the call's frame"
  expect_matches "$out$err" "    #1 main .*buffer.cpp:1[0-9]" "$how: its caller"
  expect_matches "$out$err" "  Previous read of size 1 at 0x[0-9a-f]+ by thread T1:" "$how: the reader's access"
done
echo PASS
