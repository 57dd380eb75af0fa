// lock_model.cpp: owning and waiting for a lock (lock_model.h).
#include "interceptors/lock_model.h"

namespace sim::internal {

bool LockIsFree(const void* lock) {
  const auto& model = *static_cast<const LockModel*>(lock);
  return model.owner == nullptr && !model.held_outside_world;
}

std::string LockHolder(const void* lock) {
  const auto& model = *static_cast<const LockModel*>(lock);
  if (model.held_outside_world) return "held by a thread outside the world";
  return model.owner != nullptr ? "held by T" + std::to_string(model.owner->id) : "free";
}

bool TakeLock(World& world, LockModel& lock, const char* description, const void* object,
              std::optional<std::uint64_t> deadline_ns) {
  while (!LockIsFree(&lock)) {
    const Wait wait{
        .description = description,
        .object = object,
        .ready = LockIsFree,
        .model = &lock,
        .deadline_ns = deadline_ns,
        .blocker = LockHolder,
    };
    if (world.Block(wait)) return false;
  }
  lock.owner = &world.running();
  lock.depth = 1;
  return true;
}

void ReleaseLock(World& world, LockModel& lock, const void* object) {
  lock.owner = nullptr;
  lock.depth = 0;
  world.ReleasedBeforePoint(object);
}

}  // namespace sim::internal
