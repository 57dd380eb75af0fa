// thread.cpp: thread lifecycle (std::thread, std::jthread,
// std::async and raw pthreads): create, join, detach, exit, cancel.
//
// A simulated thread's pthread_t is the thread pointer of its borrowed TCB,
// so pthread_self(), pthread_equal() and std::this_thread::get_id() agree
// with what pthread_create returned: under the eager tls_switch modes that
// TCB is installed, and under lazy pthread_self adds __sim_tls_delta to the
// installed one.
#include <pthread.h>
#include <threads.h>

#include <cerrno>

#include "core/race_checks.h"
#include "core/world.h"
#include "interceptors/real_function.h"
#include "race/race_detector.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)> real_create("pthread_create");
RealFunction<int(pthread_t, void**)> real_join("pthread_join");
RealFunction<int(pthread_t, void**)> real_tryjoin("pthread_tryjoin_np");
RealFunction<int(pthread_t, void**, const struct timespec*)> real_timedjoin("pthread_timedjoin_np");
RealFunction<int(pthread_t)> real_detach("pthread_detach");
RealFunction<void(void*)> real_exit("pthread_exit");
RealFunction<int(pthread_t)> real_cancel("pthread_cancel");

bool ThreadFinished(const void* model) { return static_cast<const SimThread*>(model)->state == ThreadState::kFinished; }
std::string StillRunning(const void* model) {
  return "T" + std::to_string(static_cast<const SimThread*>(model)->id) + " has not finished";
}

int Join(World& world, pthread_t handle, void** result, EventKind kind, const Site& site, bool wait,
         std::optional<std::uint64_t> deadline_ns) {
  world.SchedulingPoint(kind, reinterpret_cast<void*>(handle), site);
  SimThread* target = world.FindThread(reinterpret_cast<ThreadPointer>(handle));
  if (target == nullptr || target->joined) return ESRCH;
  if (target == &world.running()) return EDEADLK;
  if (target->detached) return EINVAL;
  const std::uint64_t points = world.running().points;
  if (target->state != ThreadState::kFinished) {
    if (!wait) return EBUSY;
    const Wait join{
        .description = "join thread",
        .object = reinterpret_cast<void*>(handle),
        .ready = ThreadFinished,
        .model = target,
        .deadline_ns = deadline_ns,
        .blocker = StillRunning,
    };
    const bool timed_out = world.Block(join);
    // Back from the wait, the joiner takes the thread's end and writes its result.
    world.WokenStepTouches(points, join.object, result != nullptr ? static_cast<const void*>(result) : join.object);
    if (timed_out) return ETIMEDOUT;
  } else if (result != nullptr) {
    world.ReleasedBeforePoint(result);  // written here, after the point
  }
  if (result != nullptr) *result = target->result;
  if (RaceDetector* races = world.races()) races->ThreadJoined(world.running().id, target->id);
  target->joined = true;
  world.RetireThread(*target);
  return 0;
}

}  // namespace

extern "C" {

pthread_t pthread_self() {
  return reinterpret_cast<pthread_t>(static_cast<char*>(CurrentThreadPointer()) + __sim_tls_delta);
}

// C11's thread id, which glibc computes without calling pthread_self.
thrd_t thrd_current() { return pthread_self(); }

int pthread_create(pthread_t* handle, const pthread_attr_t* attributes, void* (*start)(void*), void* argument) {
  if (!InWorld()) return real_create(handle, attributes, start, argument);
  World& world = *current_world;
  const Site site = world.CallerSite();
  SimThread& thread = world.CreateThread([start, argument] { current_world->running().result = start(argument); });
  ThreadMayStartInForeignCode(world, thread, reinterpret_cast<const void*>(start));
  thread.created_by = world.running().id;
  thread.created_at = site;
  thread.created_after = world.running().last_site;
  int detach_state = PTHREAD_CREATE_JOINABLE;
  if (attributes != nullptr) pthread_attr_getdetachstate(attributes, &detach_state);
  thread.detached = detach_state == PTHREAD_CREATE_DETACHED;
  *handle = reinterpret_cast<pthread_t>(thread.tcb);
  world.ReleasedBeforePoint(handle);  // written in the step before the point
  // After the thread exists, so the strategy may run it first.
  world.SchedulingPoint(EventKind::kThreadCreate, reinterpret_cast<void*>(*handle), site);
  return 0;
}

int pthread_join(pthread_t handle, void** result) {
  if (!InWorld()) return real_join(handle, result);
  World& world = *current_world;
  return Join(world, handle, result, EventKind::kJoin, world.CallerSite(), /*wait=*/true, std::nullopt);
}

int pthread_tryjoin_np(pthread_t handle, void** result) {
  if (!InWorld()) return real_tryjoin(handle, result);
  World& world = *current_world;
  return Join(world, handle, result, EventKind::kJoin, world.CallerSite(), /*wait=*/false, std::nullopt);
}

int pthread_timedjoin_np(pthread_t handle, void** result, const struct timespec* absolute) {
  if (!InWorld()) return real_timedjoin(handle, result, absolute);
  World& world = *current_world;
  const auto deadline = static_cast<std::uint64_t>(absolute->tv_sec) * 1000000000ULL + absolute->tv_nsec;
  return Join(world, handle, result, EventKind::kJoin, world.CallerSite(), /*wait=*/true,
              deadline > kRealtimeEpochNs ? deadline - kRealtimeEpochNs : 0);
}

int pthread_detach(pthread_t handle) {
  if (!InWorld()) return real_detach(handle);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kDetach, reinterpret_cast<void*>(handle), world.CallerSite());
  SimThread* target = world.FindThread(reinterpret_cast<ThreadPointer>(handle));
  if (target == nullptr || target->joined) return ESRCH;
  if (target->detached) return EINVAL;
  target->detached = true;
  world.RetireThread(*target);
  return 0;
}

void pthread_exit(void* result) {
  if (!InWorld()) {
    real_exit(result);
    __builtin_unreachable();
  }
  current_world->running().result = result;
  throw ThreadExitUnwind{};
}

int pthread_cancel(pthread_t handle) {
  if (!InWorld()) return real_cancel(handle);
  World& world = *current_world;
  world.EndExecution(sim::Verdict::kUnsupported,
                     "pthread_cancel called in T" + std::to_string(world.running().id) +
                         ": asynchronous and deferred cancellation cannot be modelled by a world; "
                         "signal the thread to stop through shared state instead");
}

}  // extern "C"
