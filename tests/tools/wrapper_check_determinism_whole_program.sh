# check_determinism=1 in whole-program mode reruns the program on the same
# seed and compares: a path that follows heap addresses differs between
# processes under address randomisation (here opted out of with
# SIM_ASLR_DISABLED=1, as if the re-exec were not allowed) and is reported
# as nondeterministic; with randomisation off (the default re-exec) the same
# program is deterministic and passes.
source "$(dirname "$0")/lib.sh"
[[ "$(cat /proc/sys/kernel/randomize_va_space)" != 0 ]] || { echo "address randomisation is off on this machine"; echo PASS; exit 0; }
cat > "$TEST_TMP/address_path.cpp" <<'CPP'
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
int main() {
  // A large block comes from mmap, whose address randomisation moves.
  void* block = std::malloc(1 << 22);
  const unsigned rounds = (reinterpret_cast<std::uintptr_t>(block) >> 12) & 0x3ff;
  std::mutex m;
  std::thread worker([&] {
    for (unsigned i = 0; i < rounds; ++i) std::lock_guard g(m);
  });
  worker.join();
  std::free(block);
  return 0;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "$TEST_TMP/address_path.cpp" -o "$TEST_TMP/prog"
expect_eq "$rc" 0 "compile: $err"

# Two processes draw the same 10 address bits once in 1024: three tries.
for attempt in 1 2 3; do
  run env SIM_ASLR_DISABLED=1 SIM_OPTIONS=seed=0:check_determinism=1 "$TEST_TMP/prog"
  [[ "$rc" == 66 ]] && break
done
expect_eq "$rc" 66 "a run that differs from its rerun is a runtime verdict"
expect_contains "$err" "WARNING: simthread: nondeterministic" "report header"
expect_contains "$err" "the same seed gave a different execution in a second run of this program" "message"

run env SIM_OPTIONS=seed=0:check_determinism=1 "$TEST_TMP/prog"
expect_eq "$rc" 0 "with randomisation off (the default re-exec) the program is deterministic: $err"
echo PASS
