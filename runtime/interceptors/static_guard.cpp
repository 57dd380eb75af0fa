// static_guard.cpp: __cxa_guard_acquire and __cxa_guard_release, which
// libstdc++ runs around a function-local static's initialisation.
//
// Scheduling needs nothing here: a contended guard waits on a futex
// (futex.cpp). The race detector does: the guard's "done" byte is set by
// __cxa_guard_release inside libstdc++, which the pass never sees, while
// the inline check of later calls is an acquire load the pass does see. So
// the release is made here, before libstdc++'s store (a waiter it wakes may
// run before this thread's next point), and a caller that finds the static
// initialised by another thread acquires it here.
#include <cxxabi.h>

#include "core/race_checks.h"
#include "core/world.h"
#include "interceptors/real_function.h"
#include "race/race_detector.h"

using namespace sim::internal;

namespace {
RealFunction<int(__cxxabiv1::__guard*)> real_acquire("__cxa_guard_acquire");
RealFunction<void(__cxxabiv1::__guard*)> real_release("__cxa_guard_release");

}  // namespace

namespace __cxxabiv1 {
extern "C" {

int __cxa_guard_acquire(__guard* guard) {
  const int initialise = real_acquire(guard);
  if (RaceDetector* races = RacesInWorld(); races != nullptr && initialise == 0) {
    races->Acquire(current_world->running().id, guard);
  }
  return initialise;
}

void __cxa_guard_release(__guard* guard) noexcept {
  if (RaceDetector* races = RacesInWorld()) races->Release(current_world->running().id, guard);
  real_release(guard);
}

}  // extern "C"
}  // namespace __cxxabiv1
