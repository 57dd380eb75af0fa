# Anything else links: the runtime and whole-program mode, whole-archive,
# exporting what they define, after the user's arguments; sim-clang adds libstdc++; an objects-only link
# gets no compile flags (clang would warn that they are unused).
source "$(dirname "$0")/lib.sh"
link="-Wl,--whole-archive $SIM_LIB/libsimrt.a $SIM_LIB/libsim_whole_program.a -Wl,--no-whole-archive -Wl,--dynamic-list=$SIM_LIB/libsimrt.exports -Wl,--dynamic-list=$SIM_LIB/libsim_whole_program.exports -ldl -lpthread"
run "$SIM_BIN/sim-clang++" --showme -O1 foo.cpp -o foo
expect_eq "$out" "clang++-19 -I$SIM_INCLUDE -fpass-plugin=$SIM_LIB/libSimPass.so -fno-omit-frame-pointer -fno-optimize-sibling-calls -gline-tables-only -fdebug-info-for-profiling -O1 foo.cpp -o foo $link" "source link command"
run "$SIM_BIN/sim-clang++" --showme foo.o bar.o -o prog -lm
expect_eq "$out" "clang++-19 foo.o bar.o -o prog -lm $link" "objects-only link command"
run "$SIM_BIN/sim-clang" --showme foo.c -o foo
expect_contains "$out" "clang-19 -I$SIM_INCLUDE" "sim-clang uses clang-19"
expect_contains "$out" "$link -lstdc++" "sim-clang links libstdc++ for the runtime"
run "$SIM_BIN/sim-clang++" --showme:link foo.cpp
expect_eq "$out" "$link" "--showme:link"
run "$SIM_BIN/sim-clang++" --showme:compile foo.cpp
expect_eq "$out" "-I$SIM_INCLUDE -fpass-plugin=$SIM_LIB/libSimPass.so -fno-omit-frame-pointer -fno-optimize-sibling-calls -gline-tables-only -fdebug-info-for-profiling" "--showme:compile"
# Option values are not inputs: "-o foo.cpp"-style separate arguments.
run "$SIM_BIN/sim-clang++" --showme x.o -L /opt/lib -l foo -o out
expect_eq "$out" "clang++-19 x.o -L /opt/lib -l foo -o out $link" "separate option values"
echo PASS
