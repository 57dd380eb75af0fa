// race_checks.cpp: the world's side of data-race detection (options.races;
// race/race_detector.h says how a race is found). Every instrumented
// access is checked when its thread resumes after its point, just before
// the access runs. The edges come from what the world already sees: thread
// start (CreateThread) and join (the join interceptor); a mutex, a
// reader-writer lock and a once where their models take, release and
// finish them (mutex_model.cpp, which covers a condition variable's
// waiter; rwlock.cpp; once.cpp), a function-local static's guard
// (static_guard.cpp); atomics and fences by their memory order; and, here,
// the points of the other sync objects: a release where a post, a wake or
// an unlock acts (before its point) and an acquire after the wait or lock
// (after its point, and after a Block). A condition variable's signal is
// no edge (C++ orders a waiter through its mutex), nor is a gate. What
// uninstrumented libraries synchronise is in race_checks.h.
#include "core/race_checks.h"

#include "core/uninstrumented_library.h"
#include "race/race_detector.h"

namespace sim::internal {
namespace {

// What a point of `kind` releases before it and acquires after it, beyond
// what the models above do.
struct PointEdges {
  bool releases = false;
  bool acquires = false;
};

PointEdges EdgesOf(EventKind kind) {
  switch (kind) {
    case EventKind::kSpinUnlock:
    case EventKind::kSemaphorePost:
    case EventKind::kFutexWake:
    case EventKind::kStdioUnlock: return {.releases = true};
    case EventKind::kSpinLock:
    case EventKind::kSemaphoreWait:
    case EventKind::kFutexWait:
    case EventKind::kStdioLock: return {.acquires = true};
    case EventKind::kBarrierWait: return {.releases = true, .acquires = true};
    default: return {};
  }
}

std::string DescribeAccess(const RaceAccess& access) {
  const auto* site = static_cast<const __sim_site*>(access.site);
  std::string text = "T" + std::to_string(access.thread) + (access.write ? " write" : " read");
  if (site == nullptr) return text;
  if (site->line != 0) text += std::string(" at ") + site->file + ":" + std::to_string(site->line);
  if (site->function != nullptr && site->function[0] != '\0') text += std::string(" in ") + site->function;
  return text;
}

}  // namespace

void World::CheckForRace(EventKind kind, const void* object, unsigned size, const __sim_site* source) {
  ForeignCodeEdge(*this, /*after_point=*/true);
  const ThreadId thread = running_->id;
  const auto order = static_cast<MemoryOrder>(running_->memory_order);
  switch (kind) {
    case EventKind::kRead:
    case EventKind::kWrite: break;
    case EventKind::kAtomicLoad: return races_->AtomicLoad(thread, object, order);
    case EventKind::kAtomicStore: return races_->AtomicStore(thread, object, order);
    case EventKind::kAtomicRmw:
    case EventKind::kAtomicCompareExchange: return races_->AtomicReadModifyWrite(thread, object, order);
    case EventKind::kFence: return races_->Fence(thread, order);
    default: return;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(object);
  const std::optional<Race> race = kind == EventKind::kWrite ? races_->Write(thread, address, size, source)
                                                             : races_->Read(thread, address, size, source);
  if (!race) return;
  char where[32];
  std::snprintf(where, sizeof where, "%#llx", static_cast<unsigned long long>(race->address));
  EndExecution(Verdict::kFailure, "data race on " + std::string(where) + ": " + DescribeAccess(race->current) +
                                      ", and an earlier " + DescribeAccess(race->previous) +
                                      " that does not happen before it (races=1)");
}

void World::SyncEdgeForRaces(EventKind kind, const void* object, bool after_point) {
  ForeignCodeEdge(*this, after_point);
  const PointEdges edges = EdgesOf(kind);
  if (object == nullptr) return;
  if (after_point && edges.acquires) races_->Acquire(running_->id, object);
  if (!after_point && edges.releases) races_->Release(running_->id, object);
}

namespace {

// The one clock every uninstrumented library's synchronisation shares.
const char kForeignCode = 0;

// Inline assembly (a null callee) is code the pass cannot see either:
// liburcu publishes with an xchg written in it.
bool Foreign(const void* callee) { return callee == nullptr || InUninstrumentedLibrary(callee); }

}  // namespace

void CallMayEnterForeignCode(World& world, const void* callee, CallArguments arguments) {
  RaceDetector* races = world.races();
  if (races == nullptr || !Foreign(callee)) return;
  SimThread& self = world.running();
  races->Release(self.id, &kForeignCode);
  for (const void* object : arguments) {
    if (object != nullptr) races->Release(self.id, object);
  }
  ++self.foreign_calls;
}

void CallMayLeaveForeignCode(World& world, const void* callee, CallArguments arguments) {
  RaceDetector* races = world.races();
  if (races == nullptr || !Foreign(callee)) return;
  SimThread& self = world.running();
  races->Acquire(self.id, &kForeignCode);
  for (const void* object : arguments) {
    if (object != nullptr) races->Acquire(self.id, object);
  }
  if (self.foreign_calls > 0) --self.foreign_calls;
}

void ThreadMayStartInForeignCode(World& world, SimThread& thread, const void* start) {
  if (world.races() != nullptr && InUninstrumentedLibrary(start)) thread.foreign_calls = 1;
}

void ForeignCodeEdge(World& world, bool after_point) {
  SimThread& self = world.running();
  if (self.foreign_calls == 0) return;
  if (after_point) {
    world.races()->Acquire(self.id, &kForeignCode);
  } else {
    world.races()->Release(self.id, &kForeignCode);
  }
}

}  // namespace sim::internal
