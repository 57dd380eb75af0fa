// lock_model.h: who holds a lock and how deep, and waiting for it: the
// model mutexes, spin locks and stdio's FILE locks share.
//
// Each kind adds what is its own (a mutex's kind, read from its bytes); the
// owner, the depth of a recursive hold, a hold by a real thread from before
// the world began, and how a thread waits for the lock are the same for all.
#ifndef SIM_RUNTIME_INTERCEPTORS_LOCK_MODEL_H_
#define SIM_RUNTIME_INTERCEPTORS_LOCK_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/world.h"

namespace sim::internal {

struct LockModel : SyncModel {
  SimThread* owner = nullptr;
  unsigned depth = 0;               // how many times the owner holds it (recursive kinds)
  bool held_outside_world = false;  // by a real thread before the world began
};

// A Wait's `ready` and `blocker` for a LockModel.
bool LockIsFree(const void* lock);
std::string LockHolder(const void* lock);

// Blocks the running thread until `lock` is free (reported as waiting to
// `description` `object`) or the deadline passes; then the running thread
// holds it once. Returns false when the deadline passed first. Adds no
// scheduling point of its own.
bool TakeLock(World& world, LockModel& lock, const char* description, const void* object,
              std::optional<std::uint64_t> deadline_ns = std::nullopt);

// No thread holds `lock` any more; its waiters may take it. `object` is
// what the lock's scheduling points name.
void ReleaseLock(World& world, LockModel& lock, const void* object);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_INTERCEPTORS_LOCK_MODEL_H_
