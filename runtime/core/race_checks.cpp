// race_checks.cpp: the world's side of data-race detection (options.races;
// race/race_detector.h says how a race is found). Every instrumented
// access is checked when its thread resumes after its point, just before
// the access runs. The edges come from what the world already sees: thread
// start (CreateThread), join (the join interceptor), a mutex where its
// model takes and releases it (mutex_model.cpp), and every operation
// on a sync object, taken as both a release of it (at its point: an unlock
// acts before its point) and an acquire (once the thread runs on from the
// point, or from a wait). That over-orders (two readers of an rwlock, a
// signal and its waiter), so it may hide races, never invent them; atomics
// order likewise, whatever their memory_order.
#include "core/world.h"
#include "race/race_detector.h"

namespace sim::internal {
namespace {

bool IsSyncEdge(EventKind kind) {
  switch (kind) {
    case EventKind::kMutexLock:
    case EventKind::kMutexTryLock:
    case EventKind::kMutexUnlock:
    case EventKind::kCondWait:
    case EventKind::kCondSignal:
    case EventKind::kCondBroadcast:
    case EventKind::kRwlockRead:
    case EventKind::kRwlockWrite:
    case EventKind::kRwlockUnlock:
    case EventKind::kSpinLock:
    case EventKind::kSpinUnlock:
    case EventKind::kBarrierWait:
    case EventKind::kOnce:
    case EventKind::kSemaphoreWait:
    case EventKind::kSemaphorePost:
    case EventKind::kFutexWait:
    case EventKind::kFutexWake:
    case EventKind::kStdioLock:
    case EventKind::kStdioUnlock:
    case EventKind::kAtomicLoad:
    case EventKind::kAtomicStore:
    case EventKind::kAtomicRmw:
    case EventKind::kAtomicCompareExchange: return true;
    default: return false;  // thread start and join have edges of their own; a gate is not an edge
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
  if (kind != EventKind::kRead && kind != EventKind::kWrite) {
    // An atomic acts after its point: released and acquired as it runs.
    SyncEdgeForRaces(kind, object, /*acquire=*/false);
    return SyncEdgeForRaces(kind, object, /*acquire=*/true);
  }
  const auto address = reinterpret_cast<std::uintptr_t>(object);
  const ThreadId thread = running_->id;
  const std::optional<Race> race = kind == EventKind::kWrite ? races_->Write(thread, address, size, source)
                                                             : races_->Read(thread, address, size, source);
  if (!race) return;
  char where[32];
  std::snprintf(where, sizeof where, "%#llx", static_cast<unsigned long long>(race->address));
  EndExecution(Verdict::kFailure, "data race on " + std::string(where) + ": " + DescribeAccess(race->current) +
                                      ", and an earlier " + DescribeAccess(race->previous) +
                                      " that does not happen before it (races=1)");
}

void World::SyncEdgeForRaces(EventKind kind, const void* object, bool acquire) {
  if (object == nullptr || !IsSyncEdge(kind)) return;
  if (acquire) {
    races_->Acquire(running_->id, object);
  } else {
    races_->Release(running_->id, object);
  }
}

}  // namespace sim::internal
