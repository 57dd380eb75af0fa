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
#include "interceptors/lock_model.h"

namespace sim::internal {

// The owner and depth are a LockModel's; a recursive mutex counts its
// depth, and held_outside_world is a lock taken before the world began.
struct MutexModel final : LockModel {
  enum class Kind { kNormal, kRecursive, kErrorCheck };
  Kind kind = Kind::kNormal;
};

MutexModel& MutexModelOf(World& world, pthread_mutex_t* mutex);

// Blocks until the running thread holds `mutex` or the deadline passes.
// Returns 0, ETIMEDOUT, or EDEADLK (an error-checking mutex relocked).
// Does not add a scheduling point of its own.
int AcquireMutex(World& world, pthread_mutex_t* mutex, std::optional<std::uint64_t> deadline_ns);

// Releases one level of `mutex`. Returns 0 or EPERM (not the owner of an
// error-checking or recursive mutex).
int ReleaseMutex(World& world, pthread_mutex_t* mutex);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_MUTEX_MODEL_H_
