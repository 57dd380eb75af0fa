// trace.h: what happened in an execution, as far as replay and reports need.
//
// Every scheduling point appends an event. The trace keeps a running hash of
// (thread, event kind, site) and the last kKeptEvents events for the report;
// it never hashes an address, so equal hashes mean equal interleavings across
// processes and ASLR. Only events while two or more threads are alive are
// hashed (the world says which): a lone thread's stretches interleave with
// nothing, and they hold what depends on the process rather than the seed,
// such as gtest copying its flags (the --gtest_filter text) through the
// executable's instrumented std::string before a SIM_TEST body and back
// after it.
#ifndef SIM_RUNTIME_TRACE_H_
#define SIM_RUNTIME_TRACE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/site.h"

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

// Where two executions' events first differ in thread, kind or site (what
// the trace hash covers): an index into both, or the shorter one's length
// when it is a prefix of the other (the common length when they agree).
// The determinism check and the diff against a passing seed both ask.
std::size_t FirstDivergence(const std::vector<Event>& a, const std::vector<Event>& b);

class Trace {
 public:
  // Enough that the report can still show 20 after leaving out the events
  // in library code (gtest's own locking when an EXPECT fails, say).
  static constexpr std::size_t kKeptEvents = 64;
  using Ring = std::array<Event, kKeptEvents>;

  // A trace takes the ring a previous trace gave back, if any: building a
  // fresh one zeroed 5.6 KB per execution, a visible share of a small one.
  // A recycled ring's old slots are never read (LastEvents reads this
  // trace's own), and a slot's frames are ignored once its source is set.
  Trace();
  ~Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  // Appends an event, mixing it into the hash when `hashed`. Inline and
  // written in place in the ring: this runs at every scheduling point, where
  // copying an Event through a temporary and a call was a measurable share
  // of the in-world cost of an access.
  void Record(std::uint64_t step, std::uint64_t time_ns, std::uint32_t thread, EventKind kind, const void* object,
              const Site& site, bool hashed) {
    Event& slot = Fill(step, time_ns, thread, kind, object);
    if (hashed) Mix(thread, kind, site.Hash());
    slot.site = site;
    if (keep_all_) KeepSlot(slot);
  }
  // The same for a site the pass emitted, without a Site to copy from: the
  // slot's frames keep stale values, which Site ignores once source is set.
  void Record(std::uint64_t step, std::uint64_t time_ns, std::uint32_t thread, EventKind kind, const void* object,
              const __sim_site* source, bool hashed) {
    Event& slot = Fill(step, time_ns, thread, kind, object);
    if (hashed) Mix(thread, kind, source->hash);
    slot.site.source = source;
    if (keep_all_) KeepSlot(slot);
  }
  bool keeps_all() const { return keep_all_; }
  std::uint64_t hash() const { return hash_; }
  std::uint64_t events() const { return count_; }
  // The last min(events(), kKeptEvents) events, oldest first.
  std::vector<Event> LastEvents() const;

  // Keeps every event from now on (shrinking's story and the timeline need
  // the whole execution; exploring needs only the ring).
  void KeepAll() { keep_all_ = true; }
  const std::vector<Event>& all() const { return all_; }

 private:
  // Mixes (thread, kind, site hash) into the hash.
  void Mix(std::uint32_t thread, EventKind kind, std::uint64_t site_hash) {
    // One multiply on the chain per event: (thread, kind) is spread by a
    // multiply of its own, off the chain, and folded into the site hash.
    // Three chained FNV-1a word steps per event were a visible share of a
    // switch, and byte-wise FNV (before them) 24 dependent multiplies.
    const std::uint64_t who = ((static_cast<std::uint64_t>(thread) << 8) | static_cast<std::uint64_t>(kind)) *
                              0x9e3779b97f4a7c15ULL;       // 2^64 / golden ratio: odd, spreads every input bit up
    hash_ = (hash_ ^ who ^ site_hash) * 1099511628211ULL;  // FNV-1a 64 prime
    hash_ ^= hash_ >> 29;
  }
  // Fills the next ring slot but for its site.
  Event& Fill(std::uint64_t step, std::uint64_t time_ns, std::uint32_t thread, EventKind kind, const void* object) {
    Event& slot = (*ring_)[count_ % kKeptEvents];
    slot.step = step;
    slot.time_ns = time_ns;
    slot.thread = thread;
    slot.kind = kind;
    slot.object = object;
    ++count_;
    return slot;
  }
  void KeepSlot(const Event& event);

  bool keep_all_ = false;
  std::vector<Event> all_;
  std::uint64_t hash_ = 14695981039346656037ULL;  // FNV-1a 64 offset basis
  std::uint64_t count_ = 0;
  std::unique_ptr<Ring> ring_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_TRACE_H_
