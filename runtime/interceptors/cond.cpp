// cond.cpp: condition variables (std::condition_variable,
// std::condition_variable_any, wait_for/wait_until, raw pthread_cond_*).
//
// A wait releases the mutex, sleeps on the condition variable's FIFO queue
// until a signal or broadcast removes it (or its deadline passes), then
// re-acquires the mutex through the mutex model, competing with every other
// thread that wants it. Mutex ownership, recursion and errors are the mutex
// model's (mutex_model.h); the clock is the world's.
//
// Deliberate choices:
// - No spurious wakeups. POSIX allows them, but glibc's condvar almost
//   never produces one, so a failure blamed on an invented wakeup would be
//   one its author could not reproduce outside a world. The stolen-wakeup
//   interleaving (a third thread takes the state between the signal and the
//   waiter's re-lock) is explored instead, and breaks the same code: an
//   `if` where a `while` belongs.
// - A signal with nobody waiting is lost, as on a real machine; a waiter
//   that then sleeps forever is reported as a deadlock naming the condition
//   variable.
// - The real GLIBC_2.3.2 functions are used outside a world: plain dlsym may
//   return the GLIBC_2.2.5 compatibility versions, which expect the old
//   pthread_cond_t layout.
//
// Inside a world the user's pthread_cond_t is written only by
// pthread_cond_init, and read for its clock at every timed wait.
#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <deque>

#include "interceptors/mutex_model.h"
#include "interceptors/real_function.h"
#include "interceptors/virtual_clock.h"

using namespace sim::internal;

namespace {
constexpr const char* kCondVersion = "GLIBC_2.3.2";
RealFunction<int(pthread_cond_t*, const pthread_condattr_t*)> real_init("pthread_cond_init", kCondVersion);
RealFunction<int(pthread_cond_t*)> real_destroy("pthread_cond_destroy", kCondVersion);
RealFunction<int(pthread_cond_t*, pthread_mutex_t*)> real_wait("pthread_cond_wait", kCondVersion);
RealFunction<int(pthread_cond_t*, pthread_mutex_t*, const struct timespec*)> real_timedwait("pthread_cond_timedwait",
                                                                                            kCondVersion);
// Added in GLIBC_2.30, after the 2.3.2 layout change: the default version is the only one.
RealFunction<int(pthread_cond_t*, pthread_mutex_t*, clockid_t, const struct timespec*)> real_clockwait(
    "pthread_cond_clockwait");
RealFunction<int(pthread_cond_t*)> real_signal("pthread_cond_signal", kCondVersion);
RealFunction<int(pthread_cond_t*)> real_broadcast("pthread_cond_broadcast", kCondVersion);

// glibc 2.36 records pthread_condattr_setclock(CLOCK_MONOTONIC) in bit 1 of
// __wrefs (__PTHREAD_COND_CLOCK_MONOTONIC_MASK; bit 0 marks a process-shared
// condvar). Checked on this glibc: a monotonic condvar has __wrefs == 2.
constexpr unsigned kClockMonotonicMask = 2;

struct CondModel final : SyncModel {
  std::deque<SimThread*> waiters;  // FIFO: a signal wakes the longest waiter
};

CondModel& CondModelOf(World& world, pthread_cond_t* cond) {
  return world.ModelOf<CondModel>(cond, [] { return std::make_unique<CondModel>(); });
}

// pthread_cond_timedwait's clock, read from the condition variable's bytes
// at every wait rather than kept in the model: a new condition variable at
// the address of one whose end the world did not see (a stack frame
// reused) has its own.
clockid_t ClockOf(const pthread_cond_t* cond) {
  return (cond->__data.__wrefs & kClockMonotonicMask) != 0 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

std::string CondWaiters(const void* model) {
  const auto& cond = *static_cast<const CondModel*>(model);
  return "no signal or broadcast will come; " + std::to_string(cond.waiters.size()) +
         (cond.waiters.size() == 1 ? " thread waits" : " threads wait");
}

// The body of every wait, after its scheduling point.
int WaitOn(World& world, pthread_cond_t* cond, pthread_mutex_t* mutex, std::optional<std::uint64_t> deadline_ns) {
  if (const int error = ReleaseMutex(world, mutex); error != 0) return error;
  SimThread& self = world.running();
  CondModel& model = CondModelOf(world, cond);
  model.waiters.push_back(&self);
  const Wait wait{
      .description = "wait on condition variable",
      .object = cond,
      .model = &model,
      .deadline_ns = deadline_ns,
      .blocker = CondWaiters,
  };
  const std::uint64_t points = self.points;
  const bool timed_out = world.Block(wait);
  // What the waiter does until its next point: leave the queue (timed
  // out) and take the mutex back.
  world.WokenStepTouches(points, mutex, cond);
  if (timed_out) {
    // Still queued (a signal would have removed it): leave, so the next
    // signal goes to a thread that is still waiting.
    auto& waiters = CondModelOf(world, cond).waiters;
    waiters.erase(std::find(waiters.begin(), waiters.end(), &self));
  }
  // A timed-out wait re-acquires the mutex too, as POSIX requires.
  if (const int error = AcquireMutex(world, mutex, std::nullopt); error != 0) return error;
  return timed_out ? ETIMEDOUT : 0;
}

}  // namespace

extern "C" {

int pthread_cond_init(pthread_cond_t* cond, const pthread_condattr_t* attributes) {
  if (InWorld()) current_world->ForgetModel(cond);
  // The real init validates the attributes and records the clock in __wrefs,
  // where the model reads it.
  return real_init(cond, attributes);
}

int pthread_cond_destroy(pthread_cond_t* cond) {
  if (!InWorld()) return real_destroy(cond);
  World& world = *current_world;
  if (!CondModelOf(world, cond).waiters.empty()) return EBUSY;
  world.ForgetModel(cond);
  return 0;
}

int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex) {
  if (!InWorld()) return real_wait(cond, mutex);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kCondWait, cond, world.CallerSite());
  return WaitOn(world, cond, mutex, std::nullopt);
}

int pthread_cond_timedwait(pthread_cond_t* cond, pthread_mutex_t* mutex, const struct timespec* absolute) {
  if (!InWorld()) return real_timedwait(cond, mutex, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kCondWait, cond, world.CallerSite());
  if (!ValidDeadline(absolute)) return EINVAL;
  return WaitOn(world, cond, mutex, DeadlineFromAbsolute(ClockOf(cond), *absolute));
}

int pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                           const struct timespec* absolute) {
  if (!InWorld()) return real_clockwait(cond, mutex, clock, absolute);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kCondWait, cond, world.CallerSite());
  if ((clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) || !ValidDeadline(absolute)) return EINVAL;
  return WaitOn(world, cond, mutex, DeadlineFromAbsolute(clock, *absolute));
}

int pthread_cond_signal(pthread_cond_t* cond) {
  if (!InWorld()) return real_signal(cond);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kCondSignal, cond, world.CallerSite());
  CondModel& model = CondModelOf(world, cond);
  if (!model.waiters.empty()) {
    world.Wake(*model.waiters.front());
    model.waiters.pop_front();
  }
  return 0;
}

int pthread_cond_broadcast(pthread_cond_t* cond) {
  if (!InWorld()) return real_broadcast(cond);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kCondBroadcast, cond, world.CallerSite());
  CondModel& model = CondModelOf(world, cond);
  for (SimThread* waiter : model.waiters) world.Wake(*waiter);
  model.waiters.clear();
  return 0;
}

}  // extern "C"
