// once.cpp: pthread_once (std::call_once, and C code calling it
// directly). Function-local statics use __cxa_guard_acquire, a futex
// (static_guard.cpp gives them their race edges).
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
// - Done lives in the user's pthread_once_t, as in glibc: the world writes
//   the done value into it when the routine returns, and reads it at every
//   call. A new flag at the address of a finished one (a std::future's
//   shared state freed and allocated again, or a local flag in a loop, whose
//   end the world never sees) reads 0, so it starts fresh. A flag done
//   before the world began is done in every world; the end of an execution
//   writes back what each flag held before (OnceModel::AtExecutionEnd), so
//   the next execution (the next seed) starts with the routine not yet run,
//   as this one did.
//
// Calling pthread_once from inside its own routine waits for itself
// forever, as in glibc: the world reports the deadlock.
#include <pthread.h>

#include <optional>

#include "core/world.h"
#include "interceptors/real_function.h"
#include "race/race_detector.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_once_t*, void (*)())> real_once("pthread_once");

// glibc 2.36: __PTHREAD_ONCE_DONE. Checked on this glibc: a completed
// pthread_once_t holds 2.
constexpr pthread_once_t kOnceDone = 2;

// Made by the first call that finds the flag not done, and kept once done
// for what to write back at the end of the execution.
struct OnceModel final : SyncModel {
  SimThread* runner = nullptr;  // the thread running the routine, if any
  // What the flag held before the world wrote kOnceDone into it.
  std::optional<pthread_once_t> overwritten;

  bool Busy() const override { return runner != nullptr; }
  void AtExecutionEnd(const void* address) override {
    auto* flag = static_cast<pthread_once_t*>(const_cast<void*>(address));
    // Unless the bytes are no longer the flag's (memory the world did not see freed).
    if (overwritten && __atomic_load_n(flag, __ATOMIC_RELAXED) == kOnceDone) {
      __atomic_store_n(flag, *overwritten, __ATOMIC_RELAXED);
    }
  }
};

bool Done(const pthread_once_t* once) { return (__atomic_load_n(once, __ATOMIC_ACQUIRE) & kOnceDone) != 0; }

// races=1: what the routine did happens before every call that finds it done.
bool DoneAndAcquired(World& world, const pthread_once_t* once) {
  if (!Done(once)) return false;
  if (RaceDetector* races = world.races()) races->Acquire(world.running().id, once);
  return true;
}

bool OnceNotRunning(const void* model) { return static_cast<const OnceModel*>(model)->runner == nullptr; }

std::string OnceRunner(const void* model) {
  const auto& once = *static_cast<const OnceModel*>(model);
  return once.runner != nullptr ? "its routine is running in T" + std::to_string(once.runner->id) : "not running";
}

}  // namespace

extern "C" {

int pthread_once(pthread_once_t* once, void (*routine)()) {
  if (!InWorld()) return real_once(once, routine);
  // A finished once can never change again: no interleaving depends on when
  // it is read, so it is no scheduling point (gtest and libstdc++ check
  // theirs on every call, which would flood the trace).
  World& world = *current_world;
  if (DoneAndAcquired(world, once)) return 0;
  world.SchedulingPoint(EventKind::kOnce, once, world.CallerSite());
  auto model_of = [&world, once]() -> OnceModel& {
    return world.ModelOf<OnceModel>(once, [] { return std::make_unique<OnceModel>(); });
  };
  OnceModel* model = &model_of();
  if (model->runner != nullptr) {
    const Wait wait{
        .description = "wait for pthread_once routine",
        .object = once,
        .ready = OnceNotRunning,
        .model = model,
        .blocker = OnceRunner,
    };
    while (model->runner != nullptr) world.Block(wait);
    model = &model_of();  // the flag may have been freed meanwhile, and this is a new one
  }
  if (DoneAndAcquired(world, once)) return 0;
  model->runner = &world.running();
  // This run starts after the one before it ended by a throw ([thread.once.callonce]:
  // the end of an exceptional run synchronizes with the start of the next).
  if (RaceDetector* races = world.races()) races->Acquire(world.running().id, once);
  try {
    routine();
  } catch (...) {
    model->runner = nullptr;
    world.ReadinessMayHaveChanged();
    if (RaceDetector* races = world.races()) races->Release(world.running().id, once);  // to the next run
    throw;
  }
  // No scheduling point since the routine's last one: say it, or a thread
  // waiting for the routine would stay invisible to the next access point.
  model->runner = nullptr;
  world.ReadinessMayHaveChanged();
  if (RaceDetector* races = world.races()) races->Release(world.running().id, once);
  // Forgotten: the routine freed its own flag, whose bytes are not the flag's now.
  if (model->forgotten) return 0;
  model->overwritten = *once;
  __atomic_store_n(once, kOnceDone, __ATOMIC_RELEASE);
  return 0;
}

}  // extern "C"
