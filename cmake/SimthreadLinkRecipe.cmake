# SimthreadLinkRecipe.cmake: how a program takes simthread in, written once.
#
# A program is compiled and linked with simthread in three ways, and all
# three read this file:
#   sim-clang, sim-clang++   tools/CMakeLists.txt writes the lists below into
#                            the wrapper when the build is configured
#   find_package(simthread)  simthreadConfig.cmake (installed next to this
#                            file) builds its simthread::* targets with
#                            simthread_link_recipe()
#   in-tree                  runtime/CMakeLists.txt builds simthread::* and
#                            sim_link_runtime() with simthread_link_recipe()
# tests/tools/link_recipe_agrees.sh compares the command lines the three
# produce, and fails when they differ.
#
# The flavours, and what each adds to the one it builds on:
#   runtime        the compile flags, the include directory, the runtime
#                  archive and the system libraries: sim::explore over code
#                  built without the pass
#   instrument     runtime + the pass
#   whole_program  instrument + the whole-program glue (`main` runs in a world
#                  when SIM_OPTIONS is set); sim-clang++'s default
#   gtest_main     instrument + the SIM_TEST glue and its main() + GoogleTest;
#                  sim-clang++ --sim-gtest
#   gtest          instrument + the SIM_TEST glue + GoogleTest
# (sim-clang++ -fno-sim-whole-program links instrument.)

macro(_simthread_link_recipe_data)
  # Compiling, every flavour: frame pointers and no tail calls, because the
  # runtime names the user's frame behind an intercepted call by walking
  # frame pointers.
  set(SIMTHREAD_RECIPE_COMPILE_FLAGS -fno-omit-frame-pointer -fno-optimize-sibling-calls)
  # The pass (instrument and what builds on it): -fpass-plugin=<lib>/lib<name>.so.
  set(SIMTHREAD_RECIPE_PASS SimPass)
  # sim-clang only, when the user gives no -g…: report sites come from debug
  # info, and this is the cheapest setting that still names inlined functions
  # in full. (A CMake build's debug info is its build type's business.)
  set(SIMTHREAD_RECIPE_WRAPPER_DEBUG_FLAGS -gline-tables-only -fdebug-info-for-profiling)

  # Linking. Archives (<lib>/lib<name>.a), the runtime first, then the
  # flavour's glue. Each is linked whole, so every interceptor and hook is in
  # the executable whether or not the program names it, and exported through
  # the dynamic list next to it (<lib>/lib<name>.exports, written by
  # runtime/link/export_list.sh, which says why not -rdynamic).
  set(SIMTHREAD_RECIPE_RUNTIME_ARCHIVE simrt)
  set(SIMTHREAD_RECIPE_GLUE_whole_program sim_whole_program)
  set(SIMTHREAD_RECIPE_GLUE_gtest_main sim_gtest_main)
  set(SIMTHREAD_RECIPE_GLUE_gtest sim_gtest)
  # GoogleTest, after the glue that calls it (CMake: GTest::<name>;
  # sim-clang: -l<name>). gmock is not among them: simthread does not use it.
  set(SIMTHREAD_RECIPE_GTEST_gtest_main gtest)
  set(SIMTHREAD_RECIPE_GTEST_gtest gtest)
  # System libraries, last (-l<name>): the runtime calls dlsym and pthreads.
  set(SIMTHREAD_RECIPE_SYSTEM_LIBRARIES dl pthread)
  # sim-clang (C) only: the runtime is C++, and clang does not link a C
  # program with libstdc++. (CMake links a C program that links the archives
  # with the C++ driver instead: their link language is CXX.)
  set(SIMTHREAD_RECIPE_C_LIBRARIES stdc++)
endmacro()
_simthread_link_recipe_data()

# simthread_link_recipe(<target> <INTERFACE|PRIVATE|PUBLIC> <flavour>
#                       TARGETS <prefix> INCLUDE_DIR <dir> [NO_PASS])
# gives <target> the compile flags, include directory, archives, export lists
# and libraries of <flavour>. The archives and the pass are CMake targets
# named <prefix><name>: in-tree the runtime's own (simrt, SimPass, ...), in
# the installed package imported ones (simthread::_simrt, ...). NO_PASS: the
# flavour's archives without the pass (the project's own uninstrumented tests).
function(simthread_link_recipe target scope flavour)
  cmake_parse_arguments(PARSE_ARGV 3 arg "NO_PASS" "TARGETS;INCLUDE_DIR" "")
  _simthread_link_recipe_data()
  set(known runtime instrument whole_program gtest_main gtest)
  if(NOT flavour IN_LIST known)
    message(FATAL_ERROR "simthread_link_recipe: unknown flavour '${flavour}' (one of: ${known})")
  endif()

  target_include_directories(${target} ${scope} ${arg_INCLUDE_DIR})
  target_compile_options(${target} ${scope} ${SIMTHREAD_RECIPE_COMPILE_FLAGS})
  if(NOT flavour STREQUAL "runtime" AND NOT arg_NO_PASS)
    target_compile_options(${target} ${scope} "-fpass-plugin=$<TARGET_FILE:${arg_TARGETS}${SIMTHREAD_RECIPE_PASS}>")
  endif()

  set(archives ${SIMTHREAD_RECIPE_RUNTIME_ARCHIVE} ${SIMTHREAD_RECIPE_GLUE_${flavour}})
  foreach(archive IN LISTS archives)
    set(archive_target ${arg_TARGETS}${archive})
    target_link_libraries(${target} ${scope} "$<LINK_LIBRARY:WHOLE_ARCHIVE,${archive_target}>")
    target_link_options(${target} ${scope}
                        "-Wl,--dynamic-list=$<TARGET_FILE_DIR:${archive_target}>/lib${archive}.exports")
  endforeach()
  foreach(library IN LISTS SIMTHREAD_RECIPE_GTEST_${flavour})
    target_link_libraries(${target} ${scope} GTest::${library})
  endforeach()
  target_link_libraries(${target} ${scope} ${SIMTHREAD_RECIPE_SYSTEM_LIBRARIES})
endfunction()
