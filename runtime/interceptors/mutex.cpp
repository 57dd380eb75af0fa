// mutex.cpp: pthread mutexes (std::mutex, std::recursive_mutex,
// std::timed_mutex and friends), normal, recursive and error-checking.
#include <pthread.h>

#include <cerrno>

#include "interceptors/mutex_model.h"
#include "interceptors/real_function.h"
#include "interceptors/virtual_clock.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_mutex_t*, const pthread_mutexattr_t*)> real_init("pthread_mutex_init");
RealFunction<int(pthread_mutex_t*)> real_destroy("pthread_mutex_destroy");
RealFunction<int(pthread_mutex_t*)> real_lock("pthread_mutex_lock");
RealFunction<int(pthread_mutex_t*)> real_trylock("pthread_mutex_trylock");
RealFunction<int(pthread_mutex_t*)> real_unlock("pthread_mutex_unlock");
RealFunction<int(pthread_mutex_t*, const struct timespec*)> real_timedlock("pthread_mutex_timedlock");
RealFunction<int(pthread_mutex_t*, clockid_t, const struct timespec*)> real_clocklock("pthread_mutex_clocklock");
}  // namespace

extern "C" {

int pthread_mutex_init(pthread_mutex_t* mutex, const pthread_mutexattr_t* attributes) {
  if (InWorld()) current_world->ForgetModel(mutex);
  return real_init(mutex, attributes);
}

int pthread_mutex_destroy(pthread_mutex_t* mutex) {
  if (!InWorld()) return real_destroy(mutex);
  World& world = *current_world;
  if (MutexModelOf(world, mutex).owner != nullptr) return EBUSY;
  world.ForgetModel(mutex);
  return 0;
}

int pthread_mutex_lock(pthread_mutex_t* mutex) {
  if (!InWorld()) return real_lock(mutex);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kMutexLock, mutex, world.CallerSite());
  return AcquireMutex(world, mutex, std::nullopt);
}

int pthread_mutex_trylock(pthread_mutex_t* mutex) {
  if (!InWorld()) return real_trylock(mutex);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kMutexTryLock, mutex, world.CallerSite());
  MutexModel& model = MutexModelOf(world, mutex);
  const bool owned_by_self = model.owner == &world.running();
  if ((model.owner == nullptr && !model.held_outside_world) ||
      (owned_by_self && model.kind == MutexModel::Kind::kRecursive)) {
    return AcquireMutex(world, mutex, std::nullopt);
  }
  return EBUSY;
}

int pthread_mutex_timedlock(pthread_mutex_t* mutex, const struct timespec* absolute) {
  if (!InWorld()) return real_timedlock(mutex, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kMutexLock, mutex, world.CallerSite());
  return AcquireMutex(world, mutex, DeadlineFromAbsolute(CLOCK_REALTIME, *absolute));
}

int pthread_mutex_clocklock(pthread_mutex_t* mutex, clockid_t clock, const struct timespec* absolute) {
  if (!InWorld()) return real_clocklock(mutex, clock, absolute);
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) return EINVAL;
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kMutexLock, mutex, world.CallerSite());
  return AcquireMutex(world, mutex, DeadlineFromAbsolute(clock, *absolute));
}

int pthread_mutex_unlock(pthread_mutex_t* mutex) {
  if (!InWorld()) return real_unlock(mutex);
  World& world = *current_world;
  const Site site = world.CallerSite();
  const int error = ReleaseMutex(world, mutex);
  // The point comes after the release: another thread may take the mutex
  // and run before this one's next visible step, which in uninstrumented
  // code may be far away (a point before it would only let others block).
  world.SchedulingPoint(EventKind::kMutexUnlock, mutex, site);
  return error;
}

}  // extern "C"
