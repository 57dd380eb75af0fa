// race_detector.h: happens-before race detection with vector clocks
// (FastTrack's epochs: Flanagan and Freund, PLDI 2009) over the shadow
// memory, for one execution at a time.
//
// Its caller tells it, in the order the world runs them, every access of
// instrumented code and every edge of synchronisation: a thread's start
// (it knows what its creator knew), a join (the joiner knows what the
// thread knew when it ended), a release and an acquire on a sync object (a
// mutex, a semaphore), and every atomic operation and fence with its
// memory order, by the C++ rules: an acquire that reads a release (or a
// later write of its release sequence) synchronises with it, and fences
// make relaxed operations do so (a release fence before a relaxed store,
// an acquire fence after a relaxed load). Every execution is sequentially
// consistent, so a load reads the latest store. Two accesses race when
// they touch a common byte, at least one writes, and neither happens
// before the other. Each pair of sites is reported once per execution.
#ifndef SIM_RUNTIME_RACE_RACE_DETECTOR_H_
#define SIM_RUNTIME_RACE_RACE_DETECTOR_H_

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "race/access_rules.h"
#include "race/shadow_memory.h"
#include "race/vector_clock.h"

namespace sim::internal {

// The C ABI's numbering (__ATOMIC_RELAXED ...), as the pass passes it.
enum class MemoryOrder : int { kRelaxed, kConsume, kAcquire, kRelease, kAcquireRelease, kSequentiallyConsistent };

struct RaceAccess {
  RaceThread thread = 0;
  bool write = false;
  const void* site = nullptr;
  std::size_t size = 0;  // bytes: the whole access, or the earlier one's bytes in the granule where they met
  bool atomic = false;
  std::uint64_t choice_point = 0;  // the execution's choice point after which it ran (ChoicePoint::number); 0: unknown
};

struct Race {
  std::uintptr_t address = 0;  // the first byte both accesses touched
  RaceAccess current;          // the access that found it
  RaceAccess previous;         // the one it did not happen after
};

class RaceDetector {
 public:
  // A new execution: no history, no threads but `main` (thread 0).
  void Reset();

  // `child` starts knowing what `parent` knew at its creation.
  void ThreadStarted(RaceThread child, RaceThread parent);
  // `joiner` now knows what `joined` knew when it ended.
  void ThreadJoined(RaceThread joiner, RaceThread joined);
  // The edges of a sync object (any address that names one): what `thread`
  // knows now reaches whoever acquires `sync` afterwards.
  void Release(RaceThread thread, const void* sync);
  void Acquire(RaceThread thread, const void* sync);
  // A reader-writer lock's: a reader's unlock reaches the next writer, not
  // the readers after it; a writer's lock acquires what every reader and
  // writer released.
  void ReleaseShared(RaceThread thread, const void* sync);
  void AcquireExclusive(RaceThread thread, const void* sync);

  // Atomic operations on `location`, and fences, with their memory order.
  // A compare-exchange is a read-modify-write by its success order, failed
  // or not (an acquire more than a failure with a weaker order makes: it
  // may hide a race, never invent one).
  void AtomicLoad(RaceThread thread, const void* location, MemoryOrder order);
  void AtomicStore(RaceThread thread, const void* location, MemoryOrder order);
  void AtomicReadModifyWrite(RaceThread thread, const void* location, MemoryOrder order);
  void Fence(RaceThread thread, MemoryOrder order);

  // An access of [address, address + size); the first race it makes with
  // an earlier access, if any, not reported before for the same two sites.
  std::optional<Race> Read(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site) {
    return Access(thread, address, size, site, /*write=*/false, /*atomic=*/false);
  }
  std::optional<Race> Write(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site) {
    return Access(thread, address, size, site, /*write=*/true, /*atomic=*/false);
  }
  // Any access; an atomic one races with plain accesses to its bytes, never
  // with another atomic one (its edges are AtomicLoad's and the others').
  // `choice_point`: the last one before it (ChoicePoint::number), which a
  // race reports, so that the race can be flipped there.
  std::optional<Race> Access(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site, bool write,
                             bool atomic, std::uint64_t choice_point = 0) {
    if (AccessedWithoutRace(thread, address, size, site, write, atomic, choice_point)) return std::nullopt;
    return AccessPastOwnThreadPath(thread, address, size, site, write, atomic, choice_point);
  }
  // Access, for a caller that has had AccessedWithoutRace's false already
  // (which changed nothing, and would say so again).
  std::optional<Race> AccessPastOwnThreadPath(RaceThread thread, std::uintptr_t address, std::size_t size,
                                              const void* site, bool write, bool atomic, std::uint64_t choice_point) {
    return CheckAccess(thread, address, size, site, write, atomic, KeptChoicePoint(choice_point));
  }
  // Access's common case, forced inline into the world's check of every
  // access: in one granule, and no other thread's slot matters to it
  // (UpdatedByItsOwnThreadAlone). Then it is done and the answer is true;
  // else nothing changed, and Access must be called. (Asking vector clocks
  // here too, to keep the full check for races alone, cost 1 ns an access
  // more in whole_program_loop than it saved.)
  [[gnu::always_inline]] bool AccessedWithoutRace(RaceThread thread, std::uintptr_t address, std::size_t size,
                                                  const void* site, bool write, bool atomic,
                                                  std::uint64_t choice_point) {
    const std::size_t length = size == 0 ? 1 : size;
    const auto offset = static_cast<unsigned>(address & 7);
    if (offset + length > 8 || !AccessRecord::SiteFits(site)) [[unlikely]] {
      return false;
    }
    const AccessRecord access(StateOf(thread).epoch, site, static_cast<std::uint8_t>(((1u << length) - 1) << offset),
                              static_cast<unsigned>(length), write, atomic);
    return UpdatedByItsOwnThreadAlone(shadow_.Of(address >> kGranuleBits), access, KeptChoicePoint(choice_point),
                                      stale_up_to_);
  }

  // Freed or unmapped memory: a new object there starts without history.
  void Forget(std::uintptr_t begin, std::uintptr_t end) { shadow_.Forget(begin, end); }
  // free() of the heap block [begin, end), as TSan takes it: a write of the
  // whole block by `thread` at `site`, so an access of another thread that
  // did not happen before it races with it; then the block is forgotten.
  // Only the pages some access touched are checked (the others are not
  // made). The first race, if any (its size the block's).
  std::optional<Race> Free(RaceThread thread, std::uintptr_t begin, std::uintptr_t end, const void* site,
                           std::uint64_t choice_point);

 private:
  // A thread's knowledge, and what its fences act on.
  struct ThreadClocks {
    VectorClock now;
    VectorClock at_release_fence;      // what a relaxed store after its last release fence releases
    VectorClock read_without_acquire;  // what its relaxed loads read: an acquire fence acquires it
    // now's own entry, which its accesses are remembered at: kept beside
    // the clock, one load for every access instead of a chain of three
    // (the clock's own entry stalled 15% of an access). Empty until the
    // thread's first epoch (1) is set.
    Epoch epoch;
  };

  [[gnu::always_inline]] VectorClock& ClockOf(RaceThread thread) { return StateOf(thread).now; }
  // Inline for every access's sake; the rest out of line.
  [[gnu::always_inline]] ThreadClocks& StateOf(RaceThread thread) {
    if (thread < threads_.size() && !threads_[thread].epoch.empty()) [[likely]] {
      return threads_[thread];
    }
    return StartThread(thread);
  }
  ThreadClocks& StartThread(RaceThread thread);
  // A thread's release: its clock, and so its epoch, moves on.
  static void Tick(RaceThread thread, ThreadClocks& state);
  // The two halves of an atomic operation.
  void AtomicRead(ThreadClocks& state, const void* location, MemoryOrder order);
  void AtomicWrite(RaceThread thread, ThreadClocks& state, const void* location, MemoryOrder order,
                   bool continues_release_sequence);
  static std::uint32_t KeptChoicePoint(std::uint64_t choice_point) {
    return static_cast<std::uint32_t>(choice_point < kChoicePointUnknown ? choice_point : kChoicePointUnknown);
  }
  // Access, the rest of it: an access across granules, one whose site does
  // not fit a record (it stops the process), and the full check.
  std::optional<Race> CheckAccess(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site,
                                  bool write, bool atomic, std::uint32_t choice_point);
  // `access` in one granule, by the thread whose clock is `clock`: placed
  // as AccessedWithoutRace would, or with its first race reported, or
  // evicting a slot.
  std::optional<Race> FullCheck(const VectorClock& clock, std::uintptr_t granule, ShadowMemory::Granule shadow,
                                const AccessRecord& access, std::uint32_t choice_point);
  // A race of the current access with `previous`, unless its pair of sites
  // was reported already.
  std::optional<Race> Report(std::uintptr_t granule, std::uint8_t common, RaceAccess current, RaceAccess previous);

  // Every epoch of an earlier execution is at most this; this execution's
  // clocks start above it. So the shadow's slots need no emptying between
  // executions (AccessRecord::LiveAfter), and a clock orders this
  // execution's accesses as it would from 1: only differences count.
  Clock stale_up_to_ = 0;
  std::vector<ThreadClocks> threads_;
  std::unordered_map<const void*, VectorClock> syncs_;
  std::unordered_map<const void*, VectorClock> shared_releases_;  // readers' unlocks, per rwlock
  ShadowMemory shadow_;
  std::set<std::pair<const void*, const void*>> reported_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_RACE_DETECTOR_H_
