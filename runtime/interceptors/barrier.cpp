// barrier.cpp: pthread barriers (std::barrier and std::latch
// use atomics and futexes instead, and are not seen here).
//
// The count-th thread to arrive completes the round: it gets
// PTHREAD_BARRIER_SERIAL_THREAD and wakes the others, in arrival order,
// with 0. A barrier that too few threads reach is a deadlock naming how many
// arrived.
//
// Inside a world the user's pthread_barrier_t is written only by
// pthread_barrier_init, and read once, when the world first sees a barrier
// initialised before the world began, for its count.
#include <pthread.h>

#include <cerrno>
#include <vector>

#include "core/world.h"
#include "interceptors/real_function.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_barrier_t*, const pthread_barrierattr_t*, unsigned)> real_init("pthread_barrier_init");
RealFunction<int(pthread_barrier_t*)> real_destroy("pthread_barrier_destroy");
RealFunction<int(pthread_barrier_t*)> real_wait("pthread_barrier_wait");

// glibc 2.36's struct pthread_barrier: { unsigned in, current_round, count;
// int shared; unsigned out; }. Checked on this glibc: count is the third word.
constexpr int kCountWord = 2;

struct BarrierModel final : SyncModel {
  unsigned count = 0;
  std::vector<SimThread*> arrived;  // this round's waiters, in arrival order
};

BarrierModel& BarrierModelOf(World& world, pthread_barrier_t* barrier) {
  return world.ModelOf<BarrierModel>(barrier, [barrier] {
    auto model = std::make_unique<BarrierModel>();
    model->count = reinterpret_cast<const unsigned*>(barrier)[kCountWord];
    return model;
  });
}

std::string BarrierArrivals(const void* model) {
  const auto& barrier = *static_cast<const BarrierModel*>(model);
  return std::to_string(barrier.arrived.size()) + " of " + std::to_string(barrier.count) + " threads arrived";
}

}  // namespace

extern "C" {

int pthread_barrier_init(pthread_barrier_t* barrier, const pthread_barrierattr_t* attributes, unsigned count) {
  if (InWorld()) current_world->ForgetModel(barrier);
  // The real init rejects a zero count and records the count where the
  // model reads it.
  return real_init(barrier, attributes, count);
}

int pthread_barrier_destroy(pthread_barrier_t* barrier) {
  if (!InWorld()) return real_destroy(barrier);
  World& world = *current_world;
  if (!BarrierModelOf(world, barrier).arrived.empty()) return EBUSY;
  world.ForgetModel(barrier);
  return 0;
}

int pthread_barrier_wait(pthread_barrier_t* barrier) {
  if (!InWorld()) return real_wait(barrier);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kBarrierWait, barrier, world.CallerSite());
  BarrierModel& model = BarrierModelOf(world, barrier);
  if (model.arrived.size() + 1 >= model.count) {
    for (SimThread* waiter : model.arrived) world.Wake(*waiter);
    model.arrived.clear();
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  model.arrived.push_back(&world.running());
  const Wait wait{
      .description = "wait on barrier",
      .object = barrier,
      .model = &model,
      .blocker = BarrierArrivals,
  };
  world.Block(wait);
  return 0;
}

}  // extern "C"
