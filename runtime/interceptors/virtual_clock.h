// virtual_clock.h: timespecs the timed interceptors are given, read on the
// world's clock.
//
// Every world starts at the same instant (kRealtimeEpochNs,
// kMonotonicEpochNs in core/world.h); a deadline is virtual nanoseconds
// since then, and a duration is added to the world's now. One place checks a
// timespec the way glibc and the kernel do, for every timed call.
#ifndef SIM_RUNTIME_INTERCEPTORS_VIRTUAL_CLOCK_H_
#define SIM_RUNTIME_INTERCEPTORS_VIRTUAL_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace sim::internal {

// A duration (nanosleep's, FUTEX_WAIT's): both fields non-negative and
// the nanoseconds under a second, as the kernel requires.
bool ValidDuration(const timespec& duration);

// An absolute deadline (the timed waits'): not null, the nanoseconds under
// a second. A time before the epoch is valid: it has passed.
bool ValidDeadline(const timespec* absolute);

// Virtual nanoseconds of an absolute timespec on `clock`
// (CLOCK_REALTIME or CLOCK_MONOTONIC), clamped to the epoch.
std::uint64_t DeadlineFromAbsolute(clockid_t clock, const timespec& absolute);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_INTERCEPTORS_VIRTUAL_CLOCK_H_
