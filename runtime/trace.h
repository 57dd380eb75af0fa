// trace.h: what happened in an execution, as far as replay and reports need.
//
// Every scheduling point appends an event. The trace keeps a running hash of
// (thread, event kind, site) and the last kKeptEvents events for the report;
// it never hashes an address, so equal hashes mean equal interleavings across
// processes and ASLR.
#ifndef SIM_RUNTIME_TRACE_H_
#define SIM_RUNTIME_TRACE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "site.h"

namespace sim::internal {

enum class EventKind : std::uint8_t {
  kThreadStart,
  kThreadCreate,
  kThreadExit,
  kJoin,
  kDetach,
  kMutexLock,
  kMutexTryLock,
  kMutexUnlock,
  kCondWait,
  kCondSignal,
  kCondBroadcast,
  kRwlockRead,
  kRwlockWrite,
  kRwlockUnlock,
  kSpinLock,
  kSpinUnlock,
  kBarrierWait,
  kOnce,
  kSemaphoreWait,
  kSemaphorePost,
  kFutexWait,
  kFutexWake,
  kSleep,
  kYield,
  kClockRead,
  kSignal,
  kStdioLock,
  kStdioUnlock,
  kKeyAccess,
  kRead,
  kWrite,
  kAtomicLoad,
  kAtomicStore,
  kAtomicRmw,
  kAtomicCompareExchange,
  kFence,
  kGate,
};

const char* EventKindName(EventKind kind);

struct Event {
  std::uint64_t step = 0;
  std::uint64_t time_ns = 0;
  std::uint32_t thread = 0;
  EventKind kind = EventKind::kThreadStart;
  const void* object = nullptr;  // for the report only
  Site site;
};

class Trace {
 public:
  // Enough that the report can still show 20 after leaving out the events
  // in library code (gtest's own locking when an EXPECT fails, say).
  static constexpr std::size_t kKeptEvents = 64;

  void Record(const Event& event);
  std::uint64_t hash() const { return hash_; }
  std::uint64_t events() const { return count_; }
  // The last min(events(), kKeptEvents) events, oldest first.
  std::vector<Event> LastEvents() const;

  // Keeps every event from now on (shrinking's story and the timeline need
  // the whole execution; exploring needs only the ring).
  void KeepAll() { keep_all_ = true; }
  const std::vector<Event>& all() const { return all_; }

 private:
  bool keep_all_ = false;
  std::vector<Event> all_;
  std::uint64_t hash_ = 14695981039346656037ULL;  // FNV-1a 64 offset basis
  std::uint64_t count_ = 0;
  std::array<Event, kKeptEvents> ring_{};
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_TRACE_H_
