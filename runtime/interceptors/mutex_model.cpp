// mutex_model.cpp: ownership, recursion and blocking for modelled mutexes.
#include "interceptors/mutex_model.h"

#include <cerrno>
#include <ctime>

#include "race/race_detector.h"

namespace sim::internal {
namespace {

MutexModel::Kind KindOf(const pthread_mutex_t* mutex) {
  // glibc's layout: the low two bits of __kind are the mutex type.
  switch (mutex->__data.__kind & 3) {
    case PTHREAD_MUTEX_RECURSIVE_NP: return MutexModel::Kind::kRecursive;
    case PTHREAD_MUTEX_ERRORCHECK_NP: return MutexModel::Kind::kErrorCheck;
  }
  return MutexModel::Kind::kNormal;
}

}  // namespace

MutexModel& MutexModelOf(World& world, pthread_mutex_t* mutex) {
  return world.ModelOf<MutexModel>(mutex, [mutex] {
    auto model = std::make_unique<MutexModel>();
    model->kind = KindOf(mutex);
    model->held_outside_world = mutex->__data.__lock != 0;
    return model;
  });
}

int AcquireMutex(World& world, pthread_mutex_t* mutex, std::optional<std::uint64_t> deadline_ns) {
  MutexModel& model = MutexModelOf(world, mutex);
  SimThread& self = world.running();
  if (model.owner == &self) {
    switch (model.kind) {
      case MutexModel::Kind::kRecursive: ++model.depth; return 0;
      case MutexModel::Kind::kErrorCheck: return EDEADLK;
      case MutexModel::Kind::kNormal: break;  // relocking blocks forever, as in glibc: a deadlock
    }
  }
  const std::uint64_t points = self.points;
  if (!TakeLock(world, model, "lock mutex", mutex, deadline_ns)) return ETIMEDOUT;
  // Woken from the wait, the thread takes the mutex and is back in its own
  // code, whose next access is a point of its own.
  world.WokenStepTouches(points, mutex, mutex);
  // A mutex nobody holds may be a new one at the address of one whose end
  // the world did not see (a stack frame reused: std::mutex and
  // std::recursive_mutex have no destructor call), so its kind is read
  // again from its bytes, which the world never writes, whenever a thread
  // takes it.
  model.kind = KindOf(mutex);
  // Where it is taken, not only at a lock's point: a condition variable's
  // waiter takes it back with no point of its own (races=1).
  if (RaceDetector* races = world.races()) races->Acquire(self.id, mutex);
  return 0;
}

int ReleaseMutex(World& world, pthread_mutex_t* mutex) {
  // And released where it is released: a condition variable's wait lets it go.
  if (RaceDetector* races = world.races()) races->Release(world.running().id, mutex);
  MutexModel& model = MutexModelOf(world, mutex);
  if (model.owner != &world.running()) {
    if (model.owner == nullptr) model.kind = KindOf(mutex);  // as when taken (AcquireMutex)
    if (model.kind != MutexModel::Kind::kNormal) return EPERM;
    // A normal mutex unlocked by another thread: glibc just unlocks it.
  } else if (--model.depth > 0) {
    return 0;
  }
  ReleaseLock(world, model, mutex);
  return 0;
}

}  // namespace sim::internal
