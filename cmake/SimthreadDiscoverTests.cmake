# simthread_discover_tests(target [SEEDS n] [CHUNK k] [OPTIONS key=value...]
#                          <gtest_discover_tests arguments>)
#
# gtest_discover_tests for a SIM_TEST binary. SEEDS, CHUNK and OPTIONS become
# the binary's SIM_OPTIONS both when its tests are listed and when they run:
# the chunk tests' names (Suite.Name/seeds_0_99, ...) depend on the seeds and
# chunk size, and CMake 3.25's gtest_discover_tests passes EXTRA_ARGS to the
# runs only, so they travel through the target's test launcher
# (CROSSCOMPILING_EMULATOR, which discovery and the tests both use) as
# `env SIM_OPTIONS=...`. Each chunk is one ctest test.
include(GoogleTest)
function(simthread_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 SIM "" "SEEDS;CHUNK" "OPTIONS")
  set(options ${SIM_OPTIONS})
  if(DEFINED SIM_SEEDS)
    list(PREPEND options seeds=${SIM_SEEDS})
  endif()
  if(DEFINED SIM_CHUNK)
    list(APPEND options chunk=${SIM_CHUNK})
  endif()
  if(options)
    list(JOIN options ":" sim_options)
    get_target_property(launcher ${target} CROSSCOMPILING_EMULATOR)
    if(NOT launcher)
      set(launcher "")
    endif()
    set_property(TARGET ${target} PROPERTY CROSSCOMPILING_EMULATOR env "SIM_OPTIONS=${sim_options}" ${launcher})
  endif()
  gtest_discover_tests(${target} ${SIM_UNPARSED_ARGUMENTS})
endfunction()
