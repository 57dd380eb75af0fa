// uninstrumented_library.h: is a shared library loaded that was not built
// with sim-clang++?
//
// Partial-order reduction (strategy/race_reversal.h) takes a step between
// two scheduling points to touch only the access announced at the first.
// Code the pass did not instrument runs inside such steps unseen; where it
// shares memory between threads (a lock-free queue in a prebuilt library),
// two steps the reduction takes to commute may not, and the search would
// skip orders it claims to cover. The C and C++ runtimes are taken on
// trust: what they share between threads goes through calls the world
// intercepts.
#ifndef SIM_RUNTIME_UNINSTRUMENTED_LIBRARY_H_
#define SIM_RUNTIME_UNINSTRUMENTED_LIBRARY_H_

#include <string>

namespace sim::internal {

// The path of the first such library loaded, or "" when there is none.
// Looked up once per process (libraries loaded later with dlopen are not
// seen).
const std::string& FirstUninstrumentedLibrary();

// Whether `code` (a function's address) lies in such a library: where the
// race detector takes a call to be synchronisation it cannot see
// (core/race_checks.cpp). The libraries' code ranges are read at the first
// call, which must come before any world runs (they are read with dlopen).
bool InUninstrumentedLibrary(const void* code);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_UNINSTRUMENTED_LIBRARY_H_
