// abseil_cycle_clock.cpp: abseil's cycle clock, made to follow the world's.
//
// absl::Mutex reads the CPU's time-stamp counter (CycleClock::Now: rdtsc),
// and the first time a thread blocks on one, the process calibrates that
// counter against the clock and nanosleep (NominalCPUFrequency: sleep 1 ms,
// 2 ms, ... until two measurements agree). In a world the sleeps and clock
// reads are virtual while rdtsc is real: the number of rounds, and so the
// execution, depended on the machine (a seed replayed as another
// execution), and each round let the other threads spin ~10^5 scheduling
// points in MutexDelay. rdtsc cannot be made to trap everywhere (PR_SET_TSC
// is ignored under some hypervisors), so, when abseil is loaded: before
// main, outside any world, the calibration runs once on real time; and
// abseil's own hook, CycleClockSource::Register, makes its cycle clock count
// the world's virtual time at the calibrated rate (real time outside worlds).
// abseil's inline namespace is part of the symbols' names, so each name a
// supported release uses is tried.
#include <dlfcn.h>
#include <time.h>

#include <cstdint>
#include <string>

#include "core/world.h"

namespace sim::internal {
namespace {

// Debian 12's build, then upstream's long-term-support releases.
constexpr const char* kAbseilInlineNamespaces[] = {"debian3",      "lts_20220623", "lts_20230125", "lts_20230802",
                                                   "lts_20240116", "lts_20240722", "lts_20250127", "lts_20250512"};

double cycles_per_ns = 1.0;

std::int64_t CyclesFromVirtualTime() {
  std::uint64_t ns = 0;
  if (InWorld() && current_world != nullptr) {
    ns = current_world->now_ns();
  } else {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    ns = static_cast<std::uint64_t>(now.tv_sec) * 1000000000u + static_cast<std::uint64_t>(now.tv_nsec);
  }
  return static_cast<std::int64_t>(static_cast<double>(ns) * cycles_per_ns);
}

std::string AbseilSymbol(const char* inline_namespace, const char* rest) {
  return "_ZN4absl" + std::to_string(std::string(inline_namespace).size()) + inline_namespace + rest;
}

[[gnu::constructor]] void MakeAbseilCycleClockFollowTheWorld() {
  for (const char* inline_namespace : kAbseilInlineNamespaces) {
    auto nominal_frequency = reinterpret_cast<double (*)()>(
        dlsym(RTLD_DEFAULT, AbseilSymbol(inline_namespace, "13base_internal19NominalCPUFrequencyEv").c_str()));
    auto register_source = reinterpret_cast<void (*)(std::int64_t (*)())>(dlsym(
        RTLD_DEFAULT, AbseilSymbol(inline_namespace, "13base_internal16CycleClockSource8RegisterEPFlvE").c_str()));
    if (nominal_frequency == nullptr || register_source == nullptr) continue;
    const double hz = nominal_frequency();  // calibrates now, on real time; cached for the process
    if (hz > 0) cycles_per_ns = hz / 1e9;
    register_source(CyclesFromVirtualTime);
    return;
  }
}

}  // namespace
}  // namespace sim::internal
