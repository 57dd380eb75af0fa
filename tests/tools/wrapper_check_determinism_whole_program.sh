# check_determinism=1 in whole-program mode reruns the program on the same
# seed and compares: a path that follows heap addresses differs between
# processes under address randomisation (here opted out of with
# SIM_ASLR_DISABLED=1, as if the re-exec were not allowed) and is reported
# as nondeterministic; with randomisation off (the default re-exec) the same
# program is deterministic and passes.
source "$(dirname "$0")/lib.sh"

# The test needs a large block's address to differ between two processes.
# Whatever started ctest may have turned randomisation off for its children
# (ADDR_NO_RANDOMIZE is inherited, `setarch -R`): turned back on for the
# program here. Where the kernel still places the block alike every time
# (randomize_va_space=0), there is nothing to tell apart.
cat > "$TEST_TMP/with_randomisation.cpp" <<'CPP'
#include <sys/personality.h>
#include <unistd.h>
int main(int, char** argv) {
  const int current = personality(0xffffffff);
  if (current != -1) personality(static_cast<unsigned long>(current) & ~ADDR_NO_RANDOMIZE);
  execv(argv[1], argv + 1);
  return 127;
}
CPP
cat > "$TEST_TMP/block_address.cpp" <<'CPP'
#include <cstdint>
#include <cstdio>
#include <cstdlib>
int main() { std::printf("%lx\n", reinterpret_cast<std::uintptr_t>(std::malloc(1 << 22))); }
CPP
for helper in with_randomisation block_address; do
  clang++-19 -O1 "$TEST_TMP/$helper.cpp" -o "$TEST_TMP/$helper" || { echo "FAIL: cannot build $helper"; exit 1; }
done
randomised="$TEST_TMP/with_randomisation"
addresses=$(for _ in 1 2 3; do "$randomised" "$TEST_TMP/block_address"; done | sort -u | wc -l)
if [[ "$addresses" == 1 ]]; then
  echo "a block's address is the same in every process here (randomize_va_space=$(cat /proc/sys/kernel/randomize_va_space)):" \
    "nothing to tell apart"
  echo PASS
  exit 0
fi

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
  run env SIM_ASLR_DISABLED=1 SIM_OPTIONS=seed=0:check_determinism=1 "$randomised" "$TEST_TMP/prog"
  [[ "$rc" == 66 ]] && break
done
expect_eq "$rc" 66 "a run that differs from its rerun is a runtime verdict"
expect_contains "$err" "WARNING: simthread: nondeterministic" "report header"
expect_contains "$err" "the same seed gave a different execution in a second run of this program" "message"

run env SIM_OPTIONS=seed=0:check_determinism=1 "$randomised" "$TEST_TMP/prog"
expect_eq "$rc" 0 "with randomisation off (the default re-exec) the program is deterministic: $err"
echo PASS
