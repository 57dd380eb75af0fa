// mutex_model.cpp: ownership, recursion and blocking for modelled mutexes.
#include "interceptors/mutex_model.h"

#include <cerrno>
#include <ctime>

namespace sim::internal {
namespace {

bool MutexIsFree(const void* model) {
  const auto& mutex = *static_cast<const MutexModel*>(model);
  return mutex.owner == nullptr && !mutex.held_outside_world;
}

std::string MutexHolder(const void* model) {
  const auto& mutex = *static_cast<const MutexModel*>(model);
  if (mutex.held_outside_world) return "held by a thread outside the world";
  return mutex.owner != nullptr ? "held by T" + std::to_string(mutex.owner->id) : "free";
}

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
      case MutexModel::Kind::kRecursive: ++model.recursion; return 0;
      case MutexModel::Kind::kErrorCheck: return EDEADLK;
      case MutexModel::Kind::kNormal: break;  // relocking blocks forever, as in glibc: a deadlock
    }
  }
  while (!MutexIsFree(&model)) {
    const Wait wait{
        .description = "lock mutex",
        .object = mutex,
        .ready = MutexIsFree,
        .model = &model,
        .deadline_ns = deadline_ns,
        .blocker = MutexHolder,
    };
    if (world.Block(wait)) return ETIMEDOUT;
  }
  // A mutex nobody holds may be a new one at the address of one whose end
  // the world did not see (a stack frame reused: std::mutex and
  // std::recursive_mutex have no destructor call), so its kind is read
  // again from its bytes, which the world never writes, whenever a thread
  // takes it.
  model.kind = KindOf(mutex);
  model.owner = &self;
  model.recursion = 1;
  return 0;
}

int ReleaseMutex(World& world, pthread_mutex_t* mutex) {
  MutexModel& model = MutexModelOf(world, mutex);
  if (model.owner != &world.running()) {
    if (model.owner == nullptr) model.kind = KindOf(mutex);  // as when taken (AcquireMutex)
    if (model.kind != MutexModel::Kind::kNormal) return EPERM;
    // A normal mutex unlocked by another thread: glibc just unlocks it.
  } else if (--model.recursion > 0) {
    return 0;
  }
  model.owner = nullptr;
  model.recursion = 0;
  world.ReadinessMayHaveChanged();
  return 0;
}

std::uint64_t DeadlineFromAbsolute(clockid_t clock, const struct timespec& absolute) {
  const auto absolute_ns = static_cast<std::uint64_t>(absolute.tv_sec) * 1000000000ULL +
                           static_cast<std::uint64_t>(absolute.tv_nsec);
  const std::uint64_t epoch = clock == CLOCK_REALTIME ? kRealtimeEpochNs : kMonotonicEpochNs;
  return absolute.tv_sec < 0 || absolute_ns < epoch ? 0 : absolute_ns - epoch;
}

}  // namespace sim::internal
