# sim-symbolizer (tools/sim-symbolizer) answers every query the runtime asks
# (core/site.cpp) byte for byte as llvm-symbolizer --demangle --inlines
# --functions=linkage does: code addresses with inlined frames, in a
# program's own code, in the runtime, in a system library without debug
# information, and past any function; data addresses of globals and of
# nothing; a module that does not exist. And a race's report, named by
# either, is the same text.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
llvm_symbolizer=/usr/bin/llvm-symbolizer-19
cat > named.cpp <<'CPP'
#include <thread>
int shared_total = 0;
static int hidden_counter[4];
inline __attribute__((always_inline)) void AddTwice(int n) { shared_total += n; shared_total += n; }
void Worker(int n) { AddTwice(n); hidden_counter[n & 3]++; }
int main() {
  std::thread a(Worker, 1), b(Worker, 2);
  a.join();
  b.join();
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g named.cpp -o named
expect_eq "$rc" 0 "sim-clang++ named.cpp: $err"
program="$PWD/named"
libstdcxx=$(ldd named | awk '/libstdc\+\+/ {print $3}')

# Code: each function's start, a few bytes in and its middle (where a
# return address points), the runtime's and the program's alike.
{
  nm -S --defined-only named | awk '$3 ~ /^[tT]$/ {print $1, $2}' | head -400 | while read -r address size; do
    printf '"%s" 0x%x\n' "$program" $((16#$address)) "$program" $((16#$address + 5)) \
      "$program" $((16#$address + 16#$size / 2))
  done
  # Every byte of Worker, which AddTwice is inlined into.
  read -r worker worker_size < <(nm -S --defined-only named | awk '$4 == "_Z6Workeri" {print $1, $2}')
  for ((offset = 0; offset < 16#$worker_size; ++offset)); do
    printf '"%s" 0x%x\n' "$program" $((16#$worker + offset))
  done
  nm --defined-only named | awk '$2 ~ /^[bBdD]$/ {print $1}' | head -200 | while read -r address; do
    printf 'DATA "%s" 0x%x\n' "$program" $((16#$address))
  done
  printf '"%s" 0xd4578\n"%s" 0x1000\n' "$libstdcxx" "$libstdcxx"
  printf '"%s" 0x7fffffff\nDATA "%s" 0x7fffffff\n' "$program" "$program"
  printf '"%s/no-such-module" 0x10\nDATA "%s/no-such-module" 0x10\n' "$PWD" "$PWD"
} > queries
(( $(grep -c '^"' queries) > 500 && $(grep -c '^DATA' queries) > 50 )) ||
  fail "too few queries built from named's symbols: $(wc -l < queries)"

"$llvm_symbolizer" --demangle --inlines --functions=linkage < queries > by_llvm 2>/dev/null
"$SIM_BIN/sim-symbolizer" --demangle --inlines --functions=linkage < queries > by_sim 2>sim.err
expect_eq "$?" 0 "sim-symbolizer exit status: $(cat sim.err)"
cmp -s by_llvm by_sim || fail "sim-symbolizer answers differ from llvm-symbolizer's: $(diff by_llvm by_sim | head -20)"
grep -q '^AddTwice(int)$' by_sim || fail "no inlined frame named in: $(head -20 by_sim)"

run "$SIM_BIN/sim-symbolizer" --print-address < /dev/null
expect_eq "$rc" 2 "an unknown flag's exit status"
expect_contains "$err" "unknown flag '--print-address'" "an unknown flag is refused by name"

# The report of a race, its frames named by each.
SIM_OPTIONS=seed=0 ./named > /dev/null 2> report_sim
SIM_SYMBOLIZER=$llvm_symbolizer SIM_OPTIONS=seed=0 ./named > /dev/null 2> report_llvm
expect_contains "$(cat report_sim)" "WARNING: simthread: data race" "seed 0 races"
cmp -s report_sim report_llvm || fail "the report differs by symbolizer: $(diff report_llvm report_sim | head -20)"
echo PASS
