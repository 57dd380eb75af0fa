// interceptors_once.cpp: pthread_once (std::call_once, and C code calling it
// directly). Function-local statics use __cxa_guard_acquire, a futex, and
// are not seen here.
//
// One thread runs the routine; the others block until it has finished.
// Three choices shape this file:
// - The scheduling point comes first; after it, deciding to run the routine
//   and starting it happen in one step, as in glibc (a compare-and-swap,
//   then the call), so the routine's first scheduling point is its own.
//   libstdc++ passes the callable through the thread-locals
//   __once_callable/__once_call, which are per simulated thread here
//   (borrowed TCBs), and reach the routine untouched.
// - A routine that throws leaves the flag not done and the exception
//   propagates (std::call_once's contract; glibc gets there through
//   cancellation cleanup); a blocked caller then runs the routine itself.
// - The user's pthread_once_t is read, never written: its done bit, set by a
//   real call before the world began, means done in every world; a call
//   completed inside a world is done only in that world's model, so the next
//   execution (the next seed) starts with the routine not yet run, as the
//   previous one did.
//
// Calling pthread_once from inside its own routine waits for itself
// forever, as in glibc: the world reports the deadlock.
#include <pthread.h>

#include "real_function.h"
#include "world.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_once_t*, void (*)())> real_once("pthread_once");

// glibc 2.36: __PTHREAD_ONCE_DONE. Checked on this glibc: a completed
// pthread_once_t holds 2.
constexpr pthread_once_t kOnceDone = 2;

struct OnceModel final : SyncModel {
  bool done = false;
  SimThread* runner = nullptr;  // the thread running the routine, if any
};

bool OnceNotRunning(const void* model) { return static_cast<const OnceModel*>(model)->runner == nullptr; }

std::string OnceRunner(const void* model) {
  const auto& once = *static_cast<const OnceModel*>(model);
  return once.runner != nullptr ? "its routine is running in T" + std::to_string(once.runner->id) : "not running";
}

}  // namespace

extern "C" {

int pthread_once(pthread_once_t* once, void (*routine)()) {
  if (!InWorld()) return real_once(once, routine);
  World& world = *current_world;
  OnceModel& model = world.ModelOf<OnceModel>(once, [once] {
    auto created = std::make_unique<OnceModel>();
    created->done = (*once & kOnceDone) != 0;
    return created;
  });
  // A finished once can never change again: no interleaving depends on when
  // it is read, so it is no scheduling point (gtest and libstdc++ check
  // theirs on every call, which would flood the trace).
  if (model.done) return 0;
  world.SchedulingPoint(EventKind::kOnce, once, world.CallerSite());
  if (model.runner != nullptr) {
    Wait wait;
    wait.description = "wait for pthread_once routine";
    wait.object = once;
    wait.ready = OnceNotRunning;
    wait.model = &model;
    wait.blocker = OnceRunner;
    while (model.runner != nullptr) world.Block(wait);
  }
  if (model.done) return 0;
  model.runner = &world.running();
  try {
    routine();
  } catch (...) {
    model.runner = nullptr;
    world.ReadinessMayHaveChanged();
    throw;
  }
  // No scheduling point since the routine's last one: say it, or a thread
  // waiting for the routine would stay invisible to the next access point.
  model.runner = nullptr;
  model.done = true;
  world.ReadinessMayHaveChanged();
  return 0;
}

}  // extern "C"
