// trace.cpp: the running trace hash and the ring of recent events.
#include "core/trace.h"

namespace sim::internal {
namespace {

// Rings of finished traces, for the next ones. A few: traces of a world and
// of its replays can be alive at once (the determinism check).
constexpr std::size_t kMaxSpareRings = 4;
std::vector<std::unique_ptr<Trace::Ring>> spare_rings;

}  // namespace

Trace::Trace() {
  if (spare_rings.empty()) {
    ring_ = std::make_unique<Ring>();
  } else {
    ring_ = std::move(spare_rings.back());
    spare_rings.pop_back();
  }
}

Trace::~Trace() {
  if (spare_rings.size() < kMaxSpareRings) spare_rings.push_back(std::move(ring_));
}

std::size_t FirstDivergence(const std::vector<Event>& a, const std::vector<Event>& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at].thread == b[at].thread && a[at].kind == b[at].kind &&
         a[at].site.Hash() == b[at].site.Hash()) {
    ++at;
  }
  return at;
}

const char* EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kThreadStart: return "start";
    case EventKind::kThreadCreate: return "create thread";
    case EventKind::kThreadExit: return "exit";
    case EventKind::kJoin: return "join";
    case EventKind::kDetach: return "detach";
    case EventKind::kMutexLock: return "lock";
    case EventKind::kMutexTryLock: return "trylock";
    case EventKind::kMutexUnlock: return "unlock";
    case EventKind::kCondWait: return "wait";
    case EventKind::kCondSignal: return "notify_one";
    case EventKind::kCondBroadcast: return "notify_all";
    case EventKind::kRwlockRead: return "lock shared";
    case EventKind::kRwlockWrite: return "lock exclusive";
    case EventKind::kRwlockUnlock: return "unlock rwlock";
    case EventKind::kSpinLock: return "spin lock";
    case EventKind::kSpinUnlock: return "spin unlock";
    case EventKind::kBarrierWait: return "barrier wait";
    case EventKind::kOnce: return "call_once";
    case EventKind::kSemaphoreWait: return "sem_wait";
    case EventKind::kSemaphorePost: return "sem_post";
    case EventKind::kFutexWait: return "futex wait";
    case EventKind::kFutexWake: return "futex wake";
    case EventKind::kSleep: return "sleep";
    case EventKind::kYield: return "yield";
    case EventKind::kClockRead: return "read clock";
    case EventKind::kSignal: return "signal";
    case EventKind::kStdioLock: return "flockfile";
    case EventKind::kStdioUnlock: return "funlockfile";
    case EventKind::kKeyAccess: return "thread key";
    case EventKind::kRead: return "load";
    case EventKind::kWrite: return "store";
    case EventKind::kAtomicLoad: return "atomic load";
    case EventKind::kAtomicStore: return "atomic store";
    case EventKind::kAtomicRmw: return "atomic rmw";
    case EventKind::kAtomicCompareExchange: return "atomic cmpxchg";
    case EventKind::kFence: return "fence";
    case EventKind::kGate: return "gate";
  }
  return "?";
}

void Trace::KeepSlot(const Event& event) { all_.push_back(event); }

std::vector<Event> Trace::LastEvents() const {
  std::vector<Event> events;
  const std::uint64_t kept = count_ < kKeptEvents ? count_ : kKeptEvents;
  for (std::uint64_t i = count_ - kept; i < count_; ++i) events.push_back((*ring_)[i % kKeptEvents]);
  return events;
}

}  // namespace sim::internal
