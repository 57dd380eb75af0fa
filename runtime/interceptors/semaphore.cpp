// semaphore.cpp: unnamed POSIX semaphores (sem_init and the
// calls on them). Named semaphores (sem_open) live in /dev/shm and outlast
// the process, so a world cannot undo them between executions: sem_open
// inside a world ends the execution as unsupported. std::counting_semaphore
// uses atomics and futexes instead, and is not seen here.
//
// A post makes every waiter enabled while the value is positive, and the
// strategy decides who takes it, newcomers included: as with glibc, where a
// post wakes one waiter that races any thread calling sem_wait, and a
// deterministic superset of FIFO orders.
//
// Inside a world the user's sem_t is written only by sem_init, and read
// once, when the world first sees it, for its value, so a semaphore
// initialised before explore() starts every execution from that value.
#include <fcntl.h>
#include <semaphore.h>

#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdint>

#include "interceptors/mutex_model.h"
#include "interceptors/real_function.h"
#include "interceptors/virtual_clock.h"

using namespace sim::internal;

namespace {
RealFunction<int(sem_t*, int, unsigned)> real_init("sem_init");
RealFunction<int(sem_t*)> real_destroy("sem_destroy");
RealFunction<int(sem_t*)> real_wait("sem_wait");
RealFunction<int(sem_t*)> real_trywait("sem_trywait");
RealFunction<int(sem_t*, const struct timespec*)> real_timedwait("sem_timedwait");
RealFunction<int(sem_t*, clockid_t, const struct timespec*)> real_clockwait("sem_clockwait");
RealFunction<int(sem_t*)> real_post("sem_post");
RealFunction<int(sem_t*, int*)> real_getvalue("sem_getvalue");
RealFunction<sem_t*(const char*, int, mode_t, unsigned)> real_open("sem_open");

// glibc 2.36 x86-64's struct new_sem: { uint64_t data; int private; int pad; },
// the value in the low 32 bits of data (SEM_VALUE_MASK), the waiter count in
// the high ones. Checked on this glibc: sem_init(5) then sem_post gives 6.
constexpr std::uint64_t kValueMask = 0xffffffffULL;

struct SemaphoreModel final : SyncModel {
  unsigned value = 0;
  unsigned waiters = 0;  // blocked threads, whose Wait points at this model
};

SemaphoreModel& SemaphoreModelOf(World& world, sem_t* semaphore) {
  return world.ModelOf<SemaphoreModel>(semaphore, [semaphore] {
    auto model = std::make_unique<SemaphoreModel>();
    model->value = static_cast<unsigned>(*reinterpret_cast<const std::uint64_t*>(semaphore) & kValueMask);
    return model;
  });
}

bool SemaphorePositive(const void* model) { return static_cast<const SemaphoreModel*>(model)->value > 0; }

std::string SemaphoreEmpty(const void*) { return "value 0, no sem_post will come"; }

int Fail(int error) {
  errno = error;
  return -1;
}

// The body of every blocking wait, after its scheduling point.
int WaitOn(World& world, sem_t* semaphore, std::optional<clockid_t> clock, const struct timespec* absolute) {
  SemaphoreModel& model = SemaphoreModelOf(world, semaphore);
  if (clock && !ValidDeadline(absolute)) {
    return Fail(EINVAL);
  }
  const Wait wait{
      .description = "wait on semaphore",
      .object = semaphore,
      .ready = SemaphorePositive,
      .model = &model,
      .deadline_ns = clock ? std::optional(DeadlineFromAbsolute(*clock, *absolute)) : std::nullopt,
      .blocker = SemaphoreEmpty,
  };
  ++model.waiters;
  bool timed_out = false;
  while (!timed_out && model.value == 0) timed_out = world.Block(wait);
  --model.waiters;
  if (timed_out) return Fail(ETIMEDOUT);
  --model.value;
  return 0;
}

}  // namespace

extern "C" {

int sem_init(sem_t* semaphore, int process_shared, unsigned value) {
  if (InWorld()) current_world->ForgetModel(semaphore);
  // The real init rejects a value above SEM_VALUE_MAX and stores the value
  // where the model reads it.
  return real_init(semaphore, process_shared, value);
}

int sem_destroy(sem_t* semaphore) {
  if (!InWorld()) return real_destroy(semaphore);
  World& world = *current_world;
  // glibc does not check (destroying a semaphore threads wait on is
  // undefined); POSIX allows EBUSY, and the blocked threads' waits point at
  // the model.
  if (SemaphoreModelOf(world, semaphore).waiters > 0) return Fail(EBUSY);
  world.ForgetModel(semaphore);
  return 0;
}

int sem_wait(sem_t* semaphore) {
  if (!InWorld()) return real_wait(semaphore);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSemaphoreWait, semaphore, world.CallerSite());
  return WaitOn(world, semaphore, std::nullopt, nullptr);
}

int sem_trywait(sem_t* semaphore) {
  if (!InWorld()) return real_trywait(semaphore);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSemaphoreWait, semaphore, world.CallerSite());
  SemaphoreModel& model = SemaphoreModelOf(world, semaphore);
  if (model.value == 0) return Fail(EAGAIN);
  --model.value;
  return 0;
}

int sem_timedwait(sem_t* semaphore, const struct timespec* absolute) {
  if (!InWorld()) return real_timedwait(semaphore, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSemaphoreWait, semaphore, world.CallerSite());
  return WaitOn(world, semaphore, CLOCK_REALTIME, absolute);
}

int sem_clockwait(sem_t* semaphore, clockid_t clock, const struct timespec* absolute) {
  if (!InWorld()) return real_clockwait(semaphore, clock, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSemaphoreWait, semaphore, world.CallerSite());
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) return Fail(EINVAL);
  return WaitOn(world, semaphore, clock, absolute);
}

int sem_post(sem_t* semaphore) {
  if (!InWorld()) return real_post(semaphore);
  World& world = *current_world;
  const Site site = world.CallerSite();
  SemaphoreModel& model = SemaphoreModelOf(world, semaphore);
  const bool overflow = model.value >= SEM_VALUE_MAX;
  if (!overflow) ++model.value;
  world.ReleasedBeforePoint(semaphore);
  // After the post, as for a mutex unlock: a waiter may take the value and
  // run before this thread's next visible step.
  world.SchedulingPoint(EventKind::kSemaphorePost, semaphore, site);
  return overflow ? Fail(EOVERFLOW) : 0;
}

int sem_getvalue(sem_t* semaphore, int* value) {
  if (!InWorld()) return real_getvalue(semaphore, value);
  *value = static_cast<int>(SemaphoreModelOf(*current_world, semaphore).value);
  return 0;
}

sem_t* sem_open(const char* name, int flags, ...) {
  mode_t mode = 0;
  unsigned value = 0;
  if ((flags & O_CREAT) != 0) {
    va_list arguments;
    va_start(arguments, flags);
    mode = va_arg(arguments, mode_t);
    value = va_arg(arguments, unsigned);
    va_end(arguments);
  }
  if (InWorld()) {
    World& world = *current_world;
    world.EndExecution(sim::Verdict::kUnsupported,
                       std::string("sem_open(\"") + name + "\") called in T" + std::to_string(world.running().id) +
                           ": a named semaphore outlives the execution, so a world cannot model it; use an "
                           "unnamed semaphore (sem_init) in the explored code, or open it before explore()");
  }
  return real_open(name, flags, mode, value);
}

}  // extern "C"
