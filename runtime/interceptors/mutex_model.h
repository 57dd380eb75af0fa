// mutex_model.h: the world's model of a pthread mutex, shared by the mutex
// and condition-variable interceptors.
//
// The user's pthread_mutex_t is only read (its kind whenever a thread takes
// it, and whether a real thread held it when the world first saw it), never
// written, inside a world.
#ifndef SIM_RUNTIME_MUTEX_MODEL_H_
#define SIM_RUNTIME_MUTEX_MODEL_H_

#include <pthread.h>

#include <optional>

#include "core/world.h"

namespace sim::internal {

struct MutexModel final : SyncModel {
  enum class Kind { kNormal, kRecursive, kErrorCheck };
  Kind kind = Kind::kNormal;
  SimThread* owner = nullptr;
  bool held_outside_world = false;  // locked by a real thread before the world began
  unsigned recursion = 0;
};

MutexModel& MutexModelOf(World& world, pthread_mutex_t* mutex);

// Blocks until the running thread holds `mutex` or the deadline passes.
// Returns 0, ETIMEDOUT, or EDEADLK (an error-checking mutex relocked).
// Does not add a scheduling point of its own.
int AcquireMutex(World& world, pthread_mutex_t* mutex, std::optional<std::uint64_t> deadline_ns);

// Releases one level of `mutex`. Returns 0 or EPERM (not the owner of an
// error-checking or recursive mutex).
int ReleaseMutex(World& world, pthread_mutex_t* mutex);

// Virtual nanoseconds of an absolute timespec on `clock`
// (CLOCK_REALTIME or CLOCK_MONOTONIC), clamped to the epoch.
std::uint64_t DeadlineFromAbsolute(clockid_t clock, const struct timespec& absolute);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_MUTEX_MODEL_H_
