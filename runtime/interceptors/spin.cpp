// spin.cpp: pthread spin locks.
//
// Inside a world a spin lock is a mutex that blocks instead of spinning: a
// spinning fiber would never give the holder, which may be preempted at any
// scheduling point inside its critical section, a chance to run, and the
// execution would end at the step limit instead of completing. Relocking a
// lock the thread holds spins forever on a real machine; here it is a
// deadlock naming the holder.
//
// Inside a world the user's pthread_spinlock_t is written only by
// pthread_spin_init (as with mutexes), and read once, when the world first
// sees the lock, to learn whether a real thread held it before the world
// began.
#include <pthread.h>

#include <cerrno>

#include "core/world.h"
#include "interceptors/lock_model.h"
#include "interceptors/real_function.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_spinlock_t*, int)> real_init("pthread_spin_init");
RealFunction<int(pthread_spinlock_t*)> real_destroy("pthread_spin_destroy");
RealFunction<int(pthread_spinlock_t*)> real_lock("pthread_spin_lock");
RealFunction<int(pthread_spinlock_t*)> real_trylock("pthread_spin_trylock");
RealFunction<int(pthread_spinlock_t*)> real_unlock("pthread_spin_unlock");

// held_outside_world is never cleared by a lock inside the world, only by
// an unlock (glibc lets any thread release a spin lock).
struct SpinModel final : LockModel {};

// pthread_spinlock_t is a volatile int; the volatile matters to real
// spinning only, not to the address that keys the model.
const void* Key(pthread_spinlock_t* lock) { return const_cast<const int*>(lock); }

SpinModel& SpinModelOf(World& world, pthread_spinlock_t* lock) {
  return world.ModelOf<SpinModel>(Key(lock), [lock] {
    auto model = std::make_unique<SpinModel>();
    // glibc 2.36 x86-64 counts down: 1 is unlocked, 0 or below is held
    // (pthread_spin_init stores 1). Checked on this glibc.
    model->held_outside_world = *lock <= 0;
    return model;
  });
}

}  // namespace

extern "C" {

int pthread_spin_init(pthread_spinlock_t* lock, int process_shared) {
  if (InWorld()) current_world->ForgetModel(Key(lock));
  return real_init(lock, process_shared);
}

int pthread_spin_destroy(pthread_spinlock_t* lock) {
  if (!InWorld()) return real_destroy(lock);
  World& world = *current_world;
  if (SpinModelOf(world, lock).owner != nullptr) return EBUSY;
  world.ForgetModel(Key(lock));
  return 0;
}

int pthread_spin_lock(pthread_spinlock_t* lock) {
  if (!InWorld()) return real_lock(lock);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSpinLock, Key(lock), world.CallerSite());
  SpinModel& model = SpinModelOf(world, lock);
  TakeLock(world, model, "lock spin lock", Key(lock));
  return 0;
}

int pthread_spin_trylock(pthread_spinlock_t* lock) {
  if (!InWorld()) return real_trylock(lock);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSpinLock, Key(lock), world.CallerSite());
  SpinModel& model = SpinModelOf(world, lock);
  if (!LockIsFree(&model)) return EBUSY;
  model.owner = &world.running();
  return 0;
}

int pthread_spin_unlock(pthread_spinlock_t* lock) {
  if (!InWorld()) return real_unlock(lock);
  World& world = *current_world;
  const Site site = world.CallerSite();
  // Like glibc, any thread may release it: POSIX leaves an unlock by a
  // non-holder undefined, and glibc just stores 1.
  SpinModel& model = SpinModelOf(world, lock);
  model.held_outside_world = false;
  ReleaseLock(world, model, Key(lock));
  // After the release, as for mutexes: a waiter may take the lock and run
  // before this thread's next visible step.
  world.SchedulingPoint(EventKind::kSpinUnlock, Key(lock), site);
  return 0;
}

}  // extern "C"
