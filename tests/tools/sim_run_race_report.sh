# A data race's report (races=1), line by line as docs/report-format.md
# describes it, its replay, halt_on_race=0's warning, and suppressions in
# ThreadSanitizer's file format. The program: two threads increment `hits`
# with no lock (hits.cpp:4), created by std::thread at hits.cpp:7 and :8
# (libstdc++ calls pthread_create, so the report names the creator's last
# point before it: `after`).
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/hits.cpp" <<'CPP'
#include <thread>
int hits = 0;
namespace counting {
void Count() { hits = hits + 1; }
}  // namespace counting
int main() {
  std::thread a(counting::Count);
  std::thread b(counting::Count);
  a.join();
  b.join();
  return 0;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "$TEST_TMP/hits.cpp" -o "$TEST_TMP/hits"
expect_eq "$rc" 0 "sim-clang++: $err"
cd "$TEST_TMP"

SIM_OPTIONS=races=1 run "$SIM_BIN/sim-run" --seeds 100 -- ./hits
expect_eq "$rc" 1 "the race fails a seed: $out $err"
report="$out$err"
expect_contains "$report" "failed at seed" "sim-run's line"
expect_contains "$report" ": data race" "sim-run names the verdict"
expect_matches "$report" "WARNING: simthread: data race \(seed=[0-9]+, step=[0-9]+\)" "the header"
expect_matches "$report" "  (Read|Write) of size 4 at 0x[0-9a-f]+ by thread T[12]:" "the racing access"
expect_matches "$report" "    #0 counting::Count\(\) .*hits.cpp:4" "its frame"
expect_matches "$report" "  Previous (read|write) of size 4 at 0x[0-9a-f]+ by thread T[12]:" "the earlier access"
expect_matches "$report" "Thread T1 created by T0 after hits.cpp:7 in main" "where T1 was created"
expect_matches "$report" "Thread T2 created by T0 after hits.cpp:8 in main" "where T2 was created"
expect_matches "$report" "  no failure running on past the race as found, nor when flipped \(T[12]'s (read|write) before T[12]'s (read|write)\) in 20 schedules" "does it matter: hits.cpp checks nothing"
expect_matches "$report" "  Location is global 'hits' of size 4 at 0x[0-9a-f]+ \(hits.cpp:2\)" "what the address is"
expect_contains "$report" "  trace hash: " "the trace hash"
expect_matches "$report" "SUMMARY: simthread: data race: counting::Count\(\) .*hits.cpp:4" "the summary names the frame"
replay_line="$(sed -n 's/^ *replay: //p' <<< "$report" | head -1)"
eval "$replay_line" > replay.out 2>&1
expect_eq "$?" 66 "the replay line fails again, with TSan's exit status: $replay_line"
expect_eq "$(grep -m1 'SUMMARY' replay.out)" "$(grep -m1 'SUMMARY' <<< "$report")" "the replay reports the same race"

# The racing access's callers, walked from the stack at the race (inlined
# frames too, so -O2 shows the same stack as -O0), up to std::thread's
# frames; the earlier access has only its own frame.
cat > deep.cpp <<'CPP'
#include <thread>
int hits = 0;
namespace counting {
void Count() { hits = hits + 1; }
void CountTwice() {
  Count();
  Count();
}
}  // namespace counting
void Work() { counting::CountTwice(); }
int main() {
  std::thread a(Work);
  std::thread b([] { Work(); });
  a.join();
  b.join();
}
CPP
for level in O0 O2; do
  run "$SIM_BIN/sim-clang++" -std=c++20 -$level -g deep.cpp -o "deep_$level"
  expect_eq "$rc" 0 "sim-clang++ -$level: $err"
  SIM_OPTIONS=races=1:race_flips=0 run "./deep_$level"
  expect_eq "$rc" 66 "-$level: the race: $err"
  # hits + 1 is read, then written, with no call between: the write is
  # checked for both, as TSan does.
  expect_contains "$err" "  Write of size 4 at" "-$level: the racing access"
  stack="$(sed -n '/^  Write of size 4/,/^  Previous/p' <<< "$err")"
  expect_eq "$(grep -c '#' <<< "$stack")" 4 "-$level: four frames: $stack"
  expect_matches "$stack" "    #0 counting::Count\(\) deep.cpp:4" "-$level: #0, the access"
  # -O2 merges the two calls' increments into one load and one store, the
  # second call's (line 7).
  expect_matches "$stack" "    #1 counting::CountTwice\(\) deep.cpp:[67]" "-$level: #1, its caller"
  expect_matches "$stack" "    #2 Work\(\) deep.cpp:10" "-$level: #2"
  expect_matches "$stack" '    #3 main::\$_0::operator\(\)\(\) const deep.cpp:13' "-$level: #3, the thread's lambda"
  expect_eq "$(sed -n '/^  Previous write/,/^  Thread/p' <<< "$err" | grep -c '#')" 1 "-$level: the earlier access's own frame only"
  expect_matches "$err" "  Location is global 'hits' of size 4 at 0x[0-9a-f]+ \(deep.cpp:2\)" "-$level: the global"
done

# halt_on_race=0: a warning, once per pair of sites, and the run goes on.
SIM_OPTIONS=races=1:halt_on_race=0:seed=0 run ./hits
expect_eq "$rc" 0 "the program's own status: $err"
expect_contains "$err" "WARNING: simthread: data race (seed=0, step=" "the warning's header"
expect_contains "$err" "SUMMARY: simthread: data race: counting::Count()" "its summary"
# A pair of sites: each access's kind and frame (a read and a write on one
# line are two sites).
pairs="$(awk '/ of size / {frames = frames $1 $2} /#0 / {frames = frames $0} /^SUMMARY/ {print frames; frames = ""}' <<< "$err")"
expect_eq "$(sort <<< "$pairs" | uniq -d)" "" "no pair of sites warned twice: $err"

# Suppressions: a matching race: line hides it (with a comment and a line
# of another TSan type); one that matches nothing does not; a line that is
# not TSan's format, or a file that is not there, is an error naming it.
printf '# counting is being rewritten (JIRA-1)\nrace:^counting::Count\nmutex:Unrelated\n' > matches.supp
SIM_OPTIONS=races=1:suppressions=matches.supp run "$SIM_BIN/sim-run" --seeds 100 -- ./hits
expect_eq "$rc" 0 "suppressed: $out $err"
printf 'race:hits.cpp\n' > by_file.supp
SIM_OPTIONS=races=1:suppressions=by_file.supp run "$SIM_BIN/sim-run" --seeds 100 -- ./hits
expect_eq "$rc" 0 "suppressed by file name: $out $err"
printf 'race:Counting$\n' > misses.supp
SIM_OPTIONS=races=1:suppressions=misses.supp run "$SIM_BIN/sim-run" --seeds 100 -- ./hits
expect_eq "$rc" 1 "a pattern that matches nothing: $out $err"
printf 'race Count\n' > broken.supp
SIM_OPTIONS=races=1:suppressions=broken.supp:seed=0 run ./hits
expect_eq "$rc" 2 "a line not in TSan's format"
expect_contains "$err" "suppressions=broken.supp: line 1 ('race Count') is not \`type:pattern\`" "names the line"
SIM_OPTIONS=races=1:suppressions=missing.supp:seed=0 run ./hits
expect_eq "$rc" 2 "a missing file"
expect_contains "$err" "suppressions=missing.supp: cannot read it" "names the file"
echo PASS
