// tsan_annotations.cpp: ThreadSanitizer's annotation ABI, so that code
// annotated for TSan (dynamic_annotations.h, Chromium and Abseil style, and
// __tsan_* calls) gives the race detector (races=1) the edges it declares,
// with nothing changed.
//
// Happens-before annotations and the mutex annotations of a lock the world
// does not model (one built on atomics in uninstrumented code) are edges
// only: not scheduling points, and nothing outside a world. The
// annotations that ask to ignore accesses or to call a race benign are
// not supported: they are defined (a program that calls them links) and
// do nothing, which the README's limits say.
#include "core/race_checks.h"
#include "core/world.h"
#include "race/race_detector.h"

using namespace sim::internal;

namespace {

// TSan's __tsan_mutex_* flags (tsan_interface.h) this file reads.
constexpr unsigned kTsanMutexReadLock = 1u << 3;
constexpr unsigned kTsanMutexTryLockFailed = 1u << 5;

RaceThread Running() { return current_world->running().id; }
const void* Plain(const volatile void* address) { return const_cast<const void*>(address); }

void Released(const volatile void* sync) {
  if (RaceDetector* races = RacesInWorld()) races->Release(Running(), Plain(sync));
}
void Acquired(const volatile void* sync) {
  if (RaceDetector* races = RacesInWorld()) races->Acquire(Running(), Plain(sync));
}
void LockTaken(const volatile void* lock, bool shared) {
  RaceDetector* races = RacesInWorld();
  if (races == nullptr) return;
  if (shared) return races->Acquire(Running(), Plain(lock));
  races->AcquireExclusive(Running(), Plain(lock));
}
void LockReleased(const volatile void* lock, bool shared) {
  RaceDetector* races = RacesInWorld();
  if (races == nullptr) return;
  if (shared) return races->ReleaseShared(Running(), Plain(lock));
  races->Release(Running(), Plain(lock));
}

}  // namespace

extern "C" {

void AnnotateHappensBefore(const char*, int, const volatile void* address) { Released(address); }
void AnnotateHappensAfter(const char*, int, const volatile void* address) { Acquired(address); }
void __tsan_release(void* address) { Released(address); }
void __tsan_acquire(void* address) { Acquired(address); }

void AnnotateRWLockCreate(const char*, int, const volatile void*) {}
void AnnotateRWLockCreateStatic(const char*, int, const volatile void*) {}
void AnnotateRWLockDestroy(const char*, int, const volatile void*) {}
void AnnotateRWLockAcquired(const char*, int, const volatile void* lock, long is_write) {
  LockTaken(lock, is_write == 0);
}
void AnnotateRWLockReleased(const char*, int, const volatile void* lock, long is_write) {
  LockReleased(lock, is_write == 0);
}

void __tsan_mutex_create(void*, unsigned) {}
void __tsan_mutex_destroy(void*, unsigned) {}
void __tsan_mutex_pre_lock(void*, unsigned) {}
void __tsan_mutex_post_lock(void* lock, unsigned flags, int) {
  if ((flags & kTsanMutexTryLockFailed) == 0) LockTaken(lock, (flags & kTsanMutexReadLock) != 0);
}
int __tsan_mutex_pre_unlock(void* lock, unsigned flags) {
  LockReleased(lock, (flags & kTsanMutexReadLock) != 0);
  return 0;
}
void __tsan_mutex_post_unlock(void*, unsigned) {}
void __tsan_mutex_pre_signal(void*, unsigned) {}
void __tsan_mutex_post_signal(void*, unsigned) {}
void __tsan_mutex_pre_divert(void*, unsigned) {}
void __tsan_mutex_post_divert(void*, unsigned) {}

// Accepted, not acted on (see above).
void AnnotateBenignRaceSized(const char*, int, const volatile void*, long, const char*) {}
void AnnotateBenignRace(const char*, int, const volatile void*, const char*) {}
void AnnotateIgnoreReadsBegin(const char*, int) {}
void AnnotateIgnoreReadsEnd(const char*, int) {}
void AnnotateIgnoreWritesBegin(const char*, int) {}
void AnnotateIgnoreWritesEnd(const char*, int) {}

}  // extern "C"
