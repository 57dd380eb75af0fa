// rwlock.cpp: reader-writer locks (std::shared_mutex,
// std::shared_timed_mutex, raw pthread_rwlock_*): readers share, a writer is
// exclusive.
//
// Preference follows glibc. By default (PTHREAD_RWLOCK_PREFER_READER_NP, and
// PREFER_WRITER_NP, which glibc treats the same) a reader gets the lock
// whenever no writer holds it, even while writers wait, so a thread may take
// a read lock it already holds and writers can starve. Only
// PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP makes new readers wait behind
// a waiting writer. Like the mutex model, blocked threads become enabled as
// soon as the lock could be theirs and the strategy decides who gets it: a
// deterministic superset of FIFO orders, as glibc's locks are not fair
// either.
//
// Inside a world the user's pthread_rwlock_t is written only by
// pthread_rwlock_init, and read for its kind while nobody holds or waits for
// it, and once, when the world first sees the lock, for whether a real
// thread held it before the world began.
#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "interceptors/mutex_model.h"
#include "interceptors/real_function.h"
#include "interceptors/virtual_clock.h"
#include "race/race_detector.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_rwlock_t*, const pthread_rwlockattr_t*)> real_init("pthread_rwlock_init");
RealFunction<int(pthread_rwlock_t*)> real_destroy("pthread_rwlock_destroy");
RealFunction<int(pthread_rwlock_t*)> real_rdlock("pthread_rwlock_rdlock");
RealFunction<int(pthread_rwlock_t*)> real_tryrdlock("pthread_rwlock_tryrdlock");
RealFunction<int(pthread_rwlock_t*, const struct timespec*)> real_timedrdlock("pthread_rwlock_timedrdlock");
RealFunction<int(pthread_rwlock_t*, clockid_t, const struct timespec*)> real_clockrdlock("pthread_rwlock_clockrdlock");
RealFunction<int(pthread_rwlock_t*)> real_wrlock("pthread_rwlock_wrlock");
RealFunction<int(pthread_rwlock_t*)> real_trywrlock("pthread_rwlock_trywrlock");
RealFunction<int(pthread_rwlock_t*, const struct timespec*)> real_timedwrlock("pthread_rwlock_timedwrlock");
RealFunction<int(pthread_rwlock_t*, clockid_t, const struct timespec*)> real_clockwrlock("pthread_rwlock_clockwrlock");
RealFunction<int(pthread_rwlock_t*)> real_unlock("pthread_rwlock_unlock");

// glibc 2.36: __readers counts readers from bit 3 (PTHREAD_RWLOCK_READER_SHIFT).
constexpr unsigned kReaderShift = 3;

struct RwlockModel final : SyncModel {
  bool prefer_writers = false;
  bool held_outside_world = false;  // by a real thread before the world began; never released here
  SimThread* writer = nullptr;
  std::vector<SimThread*> readers;  // one entry per read lock, in acquisition order
  unsigned waiting_writers = 0;
};

RwlockModel& RwlockModelOf(World& world, pthread_rwlock_t* rwlock) {
  RwlockModel& model = world.ModelOf<RwlockModel>(rwlock, [rwlock] {
    auto created = std::make_unique<RwlockModel>();
    created->held_outside_world = rwlock->__data.__cur_writer != 0 || (rwlock->__data.__readers >> kReaderShift) != 0;
    return created;
  });
  // A lock nobody holds or waits for may be a new one at the address of one
  // whose end the world did not see (a stack frame reused:
  // std::shared_mutex has no destructor call), so its kind is read from its
  // bytes until it is used.
  if (model.writer == nullptr && model.readers.empty() && model.waiting_writers == 0) {
    const bool prefer_writers = rwlock->__data.__flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP;
    if (prefer_writers != model.prefer_writers) {
      model.prefer_writers = prefer_writers;
      world.ReadinessMayHaveChanged();  // CanRead reads it
    }
  }
  return model;
}

bool CanRead(const void* model) {
  const auto& rwlock = *static_cast<const RwlockModel*>(model);
  return rwlock.writer == nullptr && !rwlock.held_outside_world &&
         !(rwlock.prefer_writers && rwlock.waiting_writers > 0);
}

bool CanWrite(const void* model) {
  const auto& rwlock = *static_cast<const RwlockModel*>(model);
  return rwlock.writer == nullptr && !rwlock.held_outside_world && rwlock.readers.empty();
}

// "held by T2 for writing", "read-held by T1, T3".
std::string RwlockHolders(const void* model) {
  const auto& rwlock = *static_cast<const RwlockModel*>(model);
  if (rwlock.held_outside_world) return "held by a thread outside the world";
  if (rwlock.writer != nullptr) return "held by T" + std::to_string(rwlock.writer->id) + " for writing";
  if (rwlock.readers.empty()) {
    return rwlock.waiting_writers > 0 ? "free, but readers wait behind a waiting writer" : "free";
  }
  std::vector<ThreadId> ids;
  for (const SimThread* reader : rwlock.readers) ids.push_back(reader->id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string text = "read-held by ";
  for (std::size_t i = 0; i < ids.size(); ++i) text += (i == 0 ? "T" : ", T") + std::to_string(ids[i]);
  return text;
}

// Blocks until the running thread holds `rwlock` for reading. Returns 0,
// EBUSY (try), EDEADLK (it holds it for writing), ETIMEDOUT or EINVAL.
int ReadLock(World& world, pthread_rwlock_t* rwlock, bool try_only, clockid_t clock, const struct timespec* absolute) {
  RwlockModel& model = RwlockModelOf(world, rwlock);
  SimThread& self = world.running();
  if (model.writer == &self) return EDEADLK;
  if (!CanRead(&model)) {
    if (try_only) return EBUSY;
    // POSIX checks the timeout only when the call would block.
    if (absolute != nullptr && !ValidDeadline(absolute)) return EINVAL;
    const Wait wait{
        .description = "lock rwlock for reading",
        .object = rwlock,
        .ready = CanRead,
        .model = &model,
        .deadline_ns = absolute != nullptr ? std::optional(DeadlineFromAbsolute(clock, *absolute)) : std::nullopt,
        .blocker = RwlockHolders,
    };
    while (!CanRead(&model)) {
      if (world.Block(wait)) return ETIMEDOUT;
    }
  }
  model.readers.push_back(&self);
  if (RaceDetector* races = world.races()) races->Acquire(self.id, rwlock);
  return 0;
}

// Blocks until the running thread holds `rwlock` for writing. Returns 0,
// EBUSY (try), EDEADLK (it already holds it for writing), ETIMEDOUT or
// EINVAL. A thread holding a read lock that asks for the write lock waits
// for itself forever, as in glibc: the world reports the deadlock.
int WriteLock(World& world, pthread_rwlock_t* rwlock, bool try_only, clockid_t clock, const struct timespec* absolute) {
  RwlockModel& model = RwlockModelOf(world, rwlock);
  SimThread& self = world.running();
  if (model.writer == &self) return EDEADLK;
  if (!CanWrite(&model)) {
    if (try_only) return EBUSY;
    if (absolute != nullptr && !ValidDeadline(absolute)) return EINVAL;
    const Wait wait{
        .description = "lock rwlock for writing",
        .object = rwlock,
        .ready = CanWrite,
        .model = &model,
        .deadline_ns = absolute != nullptr ? std::optional(DeadlineFromAbsolute(clock, *absolute)) : std::nullopt,
        .blocker = RwlockHolders,
    };
    ++model.waiting_writers;
    bool timed_out = false;
    while (!timed_out && !CanWrite(&model)) timed_out = world.Block(wait);
    --model.waiting_writers;
    world.ReadinessMayHaveChanged();  // readers held back for this writer may go on
    if (timed_out) return ETIMEDOUT;
  }
  model.writer = &self;
  if (RaceDetector* races = world.races()) races->AcquireExclusive(self.id, rwlock);
  return 0;
}

// Releases the running thread's write lock, or one of its read locks.
// Returns 0, or EPERM when it holds neither (glibc does not check; POSIX
// allows EPERM).
int Release(World& world, pthread_rwlock_t* rwlock) {
  RwlockModel& model = RwlockModelOf(world, rwlock);
  SimThread& self = world.running();
  if (model.writer == &self) {
    if (RaceDetector* races = world.races()) races->Release(self.id, rwlock);
    model.writer = nullptr;
    world.ReleasedBeforePoint(rwlock);
    return 0;
  }
  // The most recent of this thread's read locks; which one does not matter.
  const auto reader = std::find(model.readers.rbegin(), model.readers.rend(), &self);
  if (reader == model.readers.rend()) return EPERM;
  model.readers.erase(std::next(reader).base());
  if (RaceDetector* races = world.races()) races->ReleaseShared(self.id, rwlock);
  world.ReleasedBeforePoint(rwlock);
  return 0;
}

}  // namespace

extern "C" {

int pthread_rwlock_init(pthread_rwlock_t* rwlock, const pthread_rwlockattr_t* attributes) {
  if (InWorld()) current_world->ForgetModel(rwlock);
  // The real init validates the attributes and records the kind in __flags,
  // where the model reads it.
  return real_init(rwlock, attributes);
}

int pthread_rwlock_destroy(pthread_rwlock_t* rwlock) {
  if (!InWorld()) return real_destroy(rwlock);
  World& world = *current_world;
  const RwlockModel& model = RwlockModelOf(world, rwlock);
  if (model.writer != nullptr || !model.readers.empty()) return EBUSY;
  world.ForgetModel(rwlock);
  return 0;
}

int pthread_rwlock_rdlock(pthread_rwlock_t* rwlock) {
  if (!InWorld()) return real_rdlock(rwlock);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockRead, rwlock, world.CallerSite());
  return ReadLock(world, rwlock, /*try_only=*/false, CLOCK_REALTIME, nullptr);
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t* rwlock) {
  if (!InWorld()) return real_tryrdlock(rwlock);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockRead, rwlock, world.CallerSite());
  return ReadLock(world, rwlock, /*try_only=*/true, CLOCK_REALTIME, nullptr);
}

int pthread_rwlock_timedrdlock(pthread_rwlock_t* rwlock, const struct timespec* absolute) {
  if (!InWorld()) return real_timedrdlock(rwlock, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockRead, rwlock, world.CallerSite());
  return ReadLock(world, rwlock, /*try_only=*/false, CLOCK_REALTIME, absolute);
}

int pthread_rwlock_clockrdlock(pthread_rwlock_t* rwlock, clockid_t clock, const struct timespec* absolute) {
  if (!InWorld()) return real_clockrdlock(rwlock, clock, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockRead, rwlock, world.CallerSite());
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) return EINVAL;
  return ReadLock(world, rwlock, /*try_only=*/false, clock, absolute);
}

int pthread_rwlock_wrlock(pthread_rwlock_t* rwlock) {
  if (!InWorld()) return real_wrlock(rwlock);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockWrite, rwlock, world.CallerSite());
  return WriteLock(world, rwlock, /*try_only=*/false, CLOCK_REALTIME, nullptr);
}

int pthread_rwlock_trywrlock(pthread_rwlock_t* rwlock) {
  if (!InWorld()) return real_trywrlock(rwlock);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockWrite, rwlock, world.CallerSite());
  return WriteLock(world, rwlock, /*try_only=*/true, CLOCK_REALTIME, nullptr);
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t* rwlock, const struct timespec* absolute) {
  if (!InWorld()) return real_timedwrlock(rwlock, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockWrite, rwlock, world.CallerSite());
  return WriteLock(world, rwlock, /*try_only=*/false, CLOCK_REALTIME, absolute);
}

int pthread_rwlock_clockwrlock(pthread_rwlock_t* rwlock, clockid_t clock, const struct timespec* absolute) {
  if (!InWorld()) return real_clockwrlock(rwlock, clock, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kRwlockWrite, rwlock, world.CallerSite());
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) return EINVAL;
  return WriteLock(world, rwlock, /*try_only=*/false, clock, absolute);
}

int pthread_rwlock_unlock(pthread_rwlock_t* rwlock) {
  if (!InWorld()) return real_unlock(rwlock);
  World& world = *current_world;
  const Site site = world.CallerSite();
  const int error = Release(world, rwlock);
  // After the release, as for mutexes: a waiter may take the lock and run
  // before this thread's next visible step.
  world.SchedulingPoint(EventKind::kRwlockUnlock, rwlock, site);
  return error;
}

}  // extern "C"
