// stdio.cpp: flockfile, ftrylockfile and funlockfile, the
// explicit FILE locks a program takes to write several pieces as one.
//
// Inside a world each FILE* has a recursive lock modelled by the world, and
// glibc's real lock is not taken. glibc's stdio lock is recursive with the
// TCB as its owner and waits on a futex issued inline: if a simulated thread
// held it across a scheduling point and another simulated thread locked the
// same FILE, that thread would wait in the kernel and stop the world's one
// OS thread with it.
//
// fclose forgets the FILE's lock model: glibc frees the FILE inside fclose,
// where the world does not see the free, and the next fopen often returns
// the same address. A FILE closed while flockfile'd (glibc's lock is
// recursive, so its owner may close it) would otherwise leave the new FILE
// locked.
//
// Not modelled: the lock printf, fputs, fwrite and friends take internally.
// Those calls run in libc without a scheduling point, so they take and drop
// the real lock while no other simulated thread can run; the internal lock
// is never contended and is not a scheduling point. (A custom stream whose
// callbacks reach a scheduling point, fopencookie's, would break this.)
#include <stdio.h>

#include <cerrno>

#include "core/world.h"
#include "interceptors/lock_model.h"
#include "interceptors/real_function.h"

using namespace sim::internal;

namespace {
RealFunction<void(FILE*)> real_flockfile("flockfile");
RealFunction<int(FILE*)> real_ftrylockfile("ftrylockfile");
RealFunction<void(FILE*)> real_funlockfile("funlockfile");
RealFunction<int(FILE*)> real_fclose("fclose");

// Recursive, and never held outside the world (the world's own locks are
// the only ones it sees).
struct StdioLockModel final : LockModel {};

StdioLockModel& StdioLockOf(World& world, FILE* file) {
  return world.ModelOf<StdioLockModel>(file, [] { return std::make_unique<StdioLockModel>(); });
}

void AcquireStdioLock(World& world, FILE* file) {
  StdioLockModel& lock = StdioLockOf(world, file);
  SimThread& self = world.running();
  if (lock.owner == &self) {
    ++lock.depth;
    return;
  }
  TakeLock(world, lock, "flockfile", file);
}

}  // namespace

extern "C" {

void flockfile(FILE* file) noexcept {
  if (!InWorld()) return real_flockfile(file);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kStdioLock, file, world.CallerSite());
  AcquireStdioLock(world, file);
}

int ftrylockfile(FILE* file) noexcept {
  if (!InWorld()) return real_ftrylockfile(file);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kStdioLock, file, world.CallerSite());
  StdioLockModel& lock = StdioLockOf(world, file);
  if (lock.owner != nullptr && lock.owner != &world.running()) return EBUSY;  // nonzero, as glibc returns
  AcquireStdioLock(world, file);
  return 0;
}

// Precondition (as for real stdio): the running thread holds the lock. An
// unlock by another thread is ignored rather than handing the lock over.
void funlockfile(FILE* file) noexcept {
  if (!InWorld()) return real_funlockfile(file);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kStdioUnlock, file, world.CallerSite());
  StdioLockModel& lock = StdioLockOf(world, file);
  if (lock.owner != &world.running()) return;
  if (--lock.depth == 0) ReleaseLock(world, lock, file);
}

int fclose(FILE* file) {
  if (InWorld()) current_world->ForgetModel(file);
  return real_fclose(file);
}

}  // extern "C"
