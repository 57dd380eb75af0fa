#!/usr/bin/env bash
# link_recipe_agrees.sh BUILD_DIR SOURCE_DIR: sim-clang++, the installed CMake
# package and the in-tree targets compile and link a program the same way,
# the way cmake/SimthreadLinkRecipe.cmake says.
#
# Each side's own commands are read, not the recipe: what the wrapper adds
# (--showme:compile, --showme:link), and what the CMake targets add to a
# probe program's compile and link commands (`ninja -t commands`, less those
# of the same program without simthread) in a small project built against
# the installed prefix (find_package) and against the checkout
# (add_subdirectory). link_recipe_words.py puts them in words that do not
# depend on spelling or paths: which flags, include directory, archives
# (whole or not, in which order), export lists and libraries (in which
# order). The flavours must then match:
#   sim-clang++                         simthread::whole_program
#   sim-clang++ -fno-sim-whole-program  simthread::instrument
#   sim-clang++ --sim-gtest             simthread::gtest_main
# each as installed and in-tree (simthread::runtime and ::gtest, which the
# wrapper has no flag for, between the two), and sim_link_runtime(<target>
# [flavour]), which the project's own tests use, is its flavour without the
# pass. Nothing is built: the commands are compared, not run (the other
# tests run them).
source "$(dirname "$0")/lib.sh"
set -e
build="$1"
source_dir="$2"
words="$(dirname "$0")/link_recipe_words.py"
work="$TEST_TMP"

prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }

# The probe project: one executable per flavour and one without simthread.
mkdir -p "$work/probe"
printf 'int probe() { return 0; }\n' > "$work/probe/probe.cpp"
cat > "$work/probe/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(recipe_probe LANGUAGES C CXX)
if(SIMTHREAD_SOURCE_DIR)
  add_subdirectory(${SIMTHREAD_SOURCE_DIR} simthread)
else()
  find_package(simthread CONFIG REQUIRED)
endif()
add_executable(probe_none probe.cpp)
find_package(GTest REQUIRED)
add_executable(probe_googletest probe.cpp)
target_link_libraries(probe_googletest PRIVATE GTest::gtest)
foreach(flavour runtime instrument whole_program gtest_main gtest)
  add_executable(probe_${flavour} probe.cpp)
  target_link_libraries(probe_${flavour} PRIVATE simthread::${flavour})
endforeach()
if(SIMTHREAD_SOURCE_DIR)
  foreach(flavour runtime whole_program gtest_main gtest)
    add_executable(probe_own_${flavour} probe.cpp)
    sim_link_runtime(probe_own_${flavour} ${flavour})
  endforeach()
endif()
CMAKE
clang19=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19)
cmake -S "$work/probe" -B "$work/package" "${clang19[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  > "$work/package.log" 2>&1 || { cat "$work/package.log"; fail "configure the probe against the installed package"; }
cmake -S "$work/probe" -B "$work/intree" "${clang19[@]}" -DSIMTHREAD_SOURCE_DIR="$source_dir" \
  > "$work/intree.log" 2>&1 || { cat "$work/intree.log"; fail "configure the probe with simthread in-tree"; }

mkdir -p "$work/words"
# cmake_words SIDE DIR LIB TARGET FLAVOUR: what TARGET's commands add to
# probe_none's. The gtest flavours' compile command is taken against
# probe_googletest's: what GTest::gtest gives (-DGTEST_HAS_PTHREAD=1) is
# GoogleTest's CMake package's, which sim-clang++ does not use.
cmake_words() {
  local side="$1" dir="$2" lib="$3" target="$4" flavour="$5" mode what baseline
  for mode in compile link; do
    if [[ "$mode" == compile ]]; then
      baseline=probe_none
      [[ "$flavour" == gtest* ]] && baseline=probe_googletest
      what="CMakeFiles/$target.dir/probe.cpp.o" baseline="CMakeFiles/$baseline.dir/probe.cpp.o"
    else
      what="$target" baseline="probe_none"
    fi
    ninja -C "$dir" -t commands -s "$what" > "$work/words/$side.$flavour.$mode.command"
    ninja -C "$dir" -t commands -s "$baseline" > "$work/words/$side.$flavour.$mode.baseline"
    python3 "$words" "$mode" --command "$work/words/$side.$flavour.$mode.command" \
      --baseline "$work/words/$side.$flavour.$mode.baseline" --cwd "$dir" --lib "$lib" \
      --include "$prefix/include" --include "$source_dir/include" > "$work/words/$side.$flavour.$mode"
  done
}
# wrapper_words SIDE BIN LIB INCLUDE FLAVOUR FLAGS...: what sim-clang++ FLAGS adds.
wrapper_words() {
  local side="$1" bin="$2" lib="$3" include="$4" flavour="$5"
  shift 5
  # With the user's -g: the wrapper's own debug-info default is not the
  # recipe's business for CMake (its build type decides).
  "$bin/sim-clang++" --showme:compile -g "$@" probe.cpp > "$work/words/$side.$flavour.compile.command"
  "$bin/sim-clang++" --showme:link "$@" probe.cpp -o probe > "$work/words/$side.$flavour.link.command"
  local mode
  for mode in compile link; do
    python3 "$words" "$mode" --command "$work/words/$side.$flavour.$mode.command" --cwd "$work" \
      --lib "$lib" --include "$include" > "$work/words/$side.$flavour.$mode"
  done
}

for flavour in runtime instrument whole_program gtest_main gtest; do
  cmake_words package "$work/package" "$prefix/lib" "probe_$flavour" "$flavour"
  cmake_words intree "$work/intree" "$work/intree/simthread/lib" "probe_$flavour" "$flavour"
done
for flavour in runtime whole_program gtest_main gtest; do
  cmake_words intree.own "$work/intree" "$work/intree/simthread/lib" "probe_own_$flavour" "$flavour"
done
for side in installed build; do
  if [[ "$side" == installed ]]; then bin="$prefix/bin" lib="$prefix/lib" include="$prefix/include"
  else bin="$build/bin" lib="$build/lib" include="$build/include"; fi
  wrapper_words "sim-clang++.$side" "$bin" "$lib" "$include" whole_program
  wrapper_words "sim-clang++.$side" "$bin" "$lib" "$include" instrument -fno-sim-whole-program
  wrapper_words "sim-clang++.$side" "$bin" "$lib" "$include" gtest_main --sim-gtest
done
# The project's own uninstrumented targets: the flavour less the pass.
for flavour in runtime whole_program gtest_main gtest; do
  grep -v -e '-fpass-plugin=' "$work/words/intree.$flavour.compile" > "$work/words/intree-without-pass.$flavour.compile"
  cp "$work/words/intree.$flavour.link" "$work/words/intree-without-pass.$flavour.link"
done

# Each side's words must be the first side's, and say something.
differences=0
agree() {  # flavour side...
  local flavour="$1" first="$2" side mode
  shift 2
  for mode in compile link; do
    [[ -s "$work/words/$first.$flavour.$mode" ]] || fail "$first adds nothing to the $mode command of $flavour"
    for side in "$@"; do
      if ! diff -u --label "$first $flavour $mode" --label "$side $flavour $mode" \
           "$work/words/$first.$flavour.$mode" "$work/words/$side.$flavour.$mode"; then
        differences=$((differences + 1))
      fi
    done
  done
}
agree whole_program sim-clang++.installed sim-clang++.build package intree
agree instrument sim-clang++.installed sim-clang++.build package intree
agree gtest_main sim-clang++.installed sim-clang++.build package intree
agree runtime package intree
agree gtest package intree
for flavour in runtime whole_program gtest_main gtest; do
  agree "$flavour" intree-without-pass intree.own
done

# The words themselves, for the log (and for whoever changes the recipe).
for flavour in whole_program gtest_main; do
  echo "== sim-clang++ $flavour"
  cat "$work/words/sim-clang++.installed.$flavour.compile" "$work/words/sim-clang++.installed.$flavour.link"
done
(( differences == 0 )) || fail "$differences command(s) differ from the first side's (diffs above)"
echo PASS
