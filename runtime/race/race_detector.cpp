// race_detector.cpp: see race_detector.h. Vector clocks as FastTrack keeps
// them (an epoch per access, a clock per thread and sync object); per
// granule, the accesses a later one may race with, in TSan's few slots
// rather than FastTrack's read clock, so that neighbouring bytes keep
// separate histories.
#include "race/race_detector.h"

#include <bit>
#include <cstdio>
#include <cstdlib>

namespace sim::internal {
namespace {

bool Acquires(MemoryOrder order) { return order != MemoryOrder::kRelaxed && order != MemoryOrder::kRelease; }
bool Releases(MemoryOrder order) {
  return order == MemoryOrder::kRelease || order == MemoryOrder::kAcquireRelease ||
         order == MemoryOrder::kSequentiallyConsistent;
}

}  // namespace

void RaceDetector::Reset() {
  threads_.clear();
  syncs_.clear();
  shared_releases_.clear();
  shadow_.Clear();
  reported_.clear();
  ClockOf(0);
}

void DieOfRaceDetectorLimit(const char* what) {
  std::fprintf(stderr, "simthread: races=1: %s, more than the race detector's shadow can tell apart; stopping\n", what);
  std::abort();
}

RaceDetector::ThreadClocks& RaceDetector::StartThread(RaceThread thread) {
  if (thread >= threads_.size()) {
    if (thread >= kMaxRaceThreads) DieOfRaceDetectorLimit("an execution made 2^20 threads");
    threads_.resize(thread + 1);
  }
  ThreadClocks& state = threads_[thread];
  if (state.now.Get(thread) == 0) state.now.Set(thread, 1);  // a thread's first epoch is 1: 0 is "no access"
  state.started = true;
  return state;
}

void RaceDetector::ThreadStarted(RaceThread child, RaceThread parent) {
  ClockOf(child);
  ClockOf(parent);
  threads_[child].now.Join(threads_[parent].now);
  threads_[parent].now.Tick(parent);
}

void RaceDetector::ThreadJoined(RaceThread joiner, RaceThread joined) {
  ClockOf(joined);
  ClockOf(joiner).Join(threads_[joined].now);
}

void RaceDetector::Release(RaceThread thread, const void* sync) {
  VectorClock& clock = ClockOf(thread);
  syncs_[sync].Join(clock);
  clock.Tick(thread);
}

void RaceDetector::Acquire(RaceThread thread, const void* sync) {
  VectorClock& clock = ClockOf(thread);
  const auto found = syncs_.find(sync);
  if (found != syncs_.end()) clock.Join(found->second);
}

void RaceDetector::ReleaseShared(RaceThread thread, const void* sync) {
  VectorClock& clock = ClockOf(thread);
  shared_releases_[sync].Join(clock);
  clock.Tick(thread);
}

void RaceDetector::AcquireExclusive(RaceThread thread, const void* sync) {
  Acquire(thread, sync);
  const auto found = shared_releases_.find(sync);
  if (found != shared_releases_.end()) ClockOf(thread).Join(found->second);
}

void RaceDetector::AtomicRead(ThreadClocks& state, const void* location, MemoryOrder order) {
  const auto found = syncs_.find(location);
  if (found == syncs_.end()) return;
  (Acquires(order) ? state.now : state.read_without_acquire).Join(found->second);
}

void RaceDetector::AtomicWrite(RaceThread thread, ThreadClocks& state, const void* location, MemoryOrder order,
                               bool continues_release_sequence) {
  if (Releases(order)) {
    // A release store heads a new release sequence: an acquire that reads
    // it learns what this thread knows, not what earlier releases gave.
    // A read-modify-write continues the sequence it reads from.
    VectorClock& released = syncs_[location];
    if (!continues_release_sequence) released.Clear();
    released.Join(state.now);
    state.now.Tick(thread);
  } else if (state.at_release_fence.size() != 0) {
    syncs_[location].Join(state.at_release_fence);
  }
  // A relaxed write leaves the location's releases in place: C++20 ends a
  // release sequence at another thread's plain store, but keeping it can
  // hide a race, never invent one.
}

void RaceDetector::AtomicLoad(RaceThread thread, const void* location, MemoryOrder order) {
  AtomicRead(StateOf(thread), location, order);
}

void RaceDetector::AtomicStore(RaceThread thread, const void* location, MemoryOrder order) {
  AtomicWrite(thread, StateOf(thread), location, order, /*continues_release_sequence=*/false);
}

void RaceDetector::AtomicReadModifyWrite(RaceThread thread, const void* location, MemoryOrder order) {
  ThreadClocks& state = StateOf(thread);
  AtomicRead(state, location, order);
  AtomicWrite(thread, state, location, order, /*continues_release_sequence=*/true);
}

void RaceDetector::Fence(RaceThread thread, MemoryOrder order) {
  ThreadClocks& state = StateOf(thread);
  if (Acquires(order)) state.now.Join(state.read_without_acquire);
  if (Releases(order)) {
    state.at_release_fence = state.now;
    state.now.Tick(thread);
  }
}

std::optional<Race> RaceDetector::Access(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site,
                                         bool write, bool atomic) {
  const VectorClock& clock = ClockOf(thread);
  if (!AccessRecord::SiteFits(site)) [[unlikely]] {
    DieOfRaceDetectorLimit("an access's site lies above 2^48");
  }
  const Epoch now(thread, clock.Get(thread));
  const std::size_t length = size == 0 ? 1 : size;
  const auto offset = static_cast<unsigned>(address & 7);
  if (offset + length <= 8) {  // in one granule, the common case
    const auto bytes = static_cast<std::uint8_t>(((1u << length) - 1) << offset);
    std::optional<Race> race = AccessGranule(
        clock, address >> kGranuleBits, AccessRecord(now, site, bytes, static_cast<unsigned>(length), write, atomic));
    if (race) race->current.size = size;
    return race;
  }
  std::optional<Race> first;
  const std::uintptr_t end = address + length;
  for (std::uintptr_t at = address; at < end;) {
    const std::uintptr_t granule = at >> kGranuleBits;
    const std::uintptr_t stop = std::min(end, (granule + 1) << kGranuleBits);
    const auto count = static_cast<unsigned>(stop - at);
    const auto bytes = static_cast<std::uint8_t>(((1u << count) - 1) << (at & 7));
    std::optional<Race> race = AccessGranule(clock, granule, AccessRecord(now, site, bytes, count, write, atomic));
    if (!first && race) {
      first = race;
      first->current.size = size;
    }
    at = stop;
  }
  return first;
}

namespace {

// Whether `access`, were it ordered after `slot`, would make it redundant:
// it covers the slot's bytes, and is neither a read that would stand for a
// write nor an atomic access that would stand for a plain one (a later
// access racing with the slot's would then go unseen).
bool CanSupersede(const AccessRecord& access, const AccessRecord& slot) {
  return (slot.bytes() & ~access.bytes()) == 0 && (access.write() || !slot.write()) &&
         (!access.atomic() || slot.atomic());
}

// Whether the two race unless one happened before the other.
bool Conflict(const AccessRecord& access, const AccessRecord& slot) {
  return (slot.bytes() & access.bytes()) != 0 && (access.write() || slot.write()) &&
         !(access.atomic() && slot.atomic());
}

// Where an access goes in its cell, from a scan of its slots: merged into a
// record of the same thread, clock, site, size and kind (a loop over an
// array's bytes at one site would otherwise take a slot per byte and evict
// the others: one record stands for all, since an access racing with any of
// them races with it on the same bytes), else over one it supersedes (one
// that happened before it and CanSupersede), else a free slot, else one
// evicted. The other superseded slots are emptied: the record it goes to
// stands for them, since whatever does not know its epoch does not know
// theirs either.
struct Placement {
  unsigned superseded = 0;  // bit i: slot i
  int merge_into = -1;
  int free_slot = -1;

  // The slot it takes, or -1: one to evict.
  int Slot() const {
    if (merge_into >= 0) return merge_into;
    if (superseded != 0) return std::countr_zero(superseded);
    return free_slot;
  }
  void Put(ShadowCell& cell, unsigned place, const AccessRecord& access) const {
    for (unsigned others = superseded & ~(1u << place); others != 0; others &= others - 1) {
      cell.slots[std::countr_zero(others)] = AccessRecord{};
    }
    AccessRecord& record = cell.slots[place];
    if (merge_into < 0) {
      record = access;
    } else if ((record.bytes() & access.bytes()) != access.bytes()) {
      record.AddBytes(access.bytes());
    }
  }
};

// FastTrack's same-epoch case, and more: what AccessGranule's full check
// does, without its questions, when no other thread's slot matters to
// `access` (none conflicts with it, none is one it might supersede). Then
// nothing can race, its own thread's slots happened before it, and whether
// another's did is never asked. A thread that touches again what it touched
// since its last release, alone, takes this path: a loop over an array, or
// ++x (its read takes a slot, its write supersedes it). Whatever it does
// the full check would have done, slot for slot, so that the reports stay
// the same: a repeat is not simply skipped, since the full check of a
// repeat may report a race its first time did not (an access reports only
// its first race, so another thread's access since may have raced with
// both and named only the other). Returns false, having changed nothing,
// where the full check must decide: another thread's slot matters, or the
// access would evict one.
bool UpdatedByItsOwnThreadAlone(ShadowCell& cell, const AccessRecord& access) {
  const RaceThread thread = access.epoch().thread();
  Placement placement;
  for (unsigned i = 0; i < ShadowCell::kSlots; ++i) {
    const AccessRecord& slot = cell.slots[i];
    if (slot.empty()) {
      if (placement.free_slot < 0) placement.free_slot = static_cast<int>(i);
      continue;
    }
    const bool supersedable = CanSupersede(access, slot);
    if (slot.epoch().thread() != thread) {
      if (supersedable || Conflict(access, slot)) return false;
      continue;
    }
    if (placement.merge_into < 0 && slot.SameAccessAs(access)) placement.merge_into = static_cast<int>(i);
    if (supersedable) placement.superseded |= 1u << i;
  }
  const int place = placement.Slot();
  if (place < 0) return false;
  placement.Put(cell, static_cast<unsigned>(place), access);
  return true;
}

}  // namespace

std::optional<Race> RaceDetector::AccessGranule(const VectorClock& clock, std::uintptr_t granule,
                                                const AccessRecord& access) {
  ShadowCell& cell = shadow_.At(granule);
  if (UpdatedByItsOwnThreadAlone(cell, access)) return std::nullopt;
  // One pass: the first race, and where this access goes (Placement).
  // Whether another thread's slot happened before this access is asked only
  // where the answer matters.
  const RaceThread thread = access.epoch().thread();
  std::optional<Race> race;
  Placement placement;
  for (unsigned i = 0; i < ShadowCell::kSlots; ++i) {
    const AccessRecord& slot = cell.slots[i];
    if (slot.empty()) {
      if (placement.free_slot < 0) placement.free_slot = static_cast<int>(i);
      continue;
    }
    const bool conflict = Conflict(access, slot);
    const bool supersedable = CanSupersede(access, slot);
    if (placement.merge_into < 0 && slot.SameAccessAs(access)) placement.merge_into = static_cast<int>(i);
    if (!conflict && !supersedable) continue;
    const bool ordered = slot.epoch().thread() == thread || clock.Knows(slot.epoch());
    if (!ordered && !race && conflict) {
      race = Report(granule, slot.bytes() & access.bytes(), {thread, access.write(), access.site(), 0, access.atomic()},
                    {slot.epoch().thread(), slot.write(), slot.site(), slot.size(), slot.atomic()});
    }
    if (ordered && supersedable) placement.superseded |= 1u << i;
  }
  const int place = placement.Slot();
  placement.Put(cell, place >= 0 ? static_cast<unsigned>(place) : shadow_.NextEvicted(), access);
  return race;
}

std::optional<Race> RaceDetector::Report(std::uintptr_t granule, std::uint8_t common, RaceAccess current,
                                         RaceAccess previous) {
  const auto sites = std::minmax(current.site, previous.site);
  if (!reported_.insert({sites.first, sites.second}).second) return std::nullopt;
  return Race{(granule << kGranuleBits) + static_cast<unsigned>(std::countr_zero(common)), current, previous};
}

}  // namespace sim::internal
