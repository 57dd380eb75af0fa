// race_detector.cpp: see race_detector.h. Vector clocks as FastTrack keeps
// them (an epoch per access, a clock per thread and sync object); per
// granule, the accesses a later one may race with, in TSan's few slots
// rather than FastTrack's read clock, so that neighbouring bytes keep
// separate histories.
#include "race/race_detector.h"

#include <algorithm>
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

namespace {

// Beyond this many sync objects, a new execution starts with none rather
// than keep the last one's, emptied.
constexpr std::size_t kMaxKeptSyncs = 4096;

void Empty(std::unordered_map<const void*, VectorClock>& clocks) {
  if (clocks.size() > kMaxKeptSyncs) return clocks.clear();
  for (auto& [sync, clock] : clocks) clock.Clear();
}

}  // namespace

// What the last execution allocated is kept, emptied (an empty clock
// orders nothing): the clocks' memory, the shadow's pages.
void RaceDetector::Reset() {
  for (ThreadClocks& state : threads_) {
    stale_up_to_ = std::max(stale_up_to_, state.epoch.clock());  // its own clock's last value
    state.now.Clear();
    state.at_release_fence.Clear();
    state.read_without_acquire.Clear();
    state.epoch = Epoch{};
  }
  Empty(syncs_);
  Empty(shared_releases_);
  // Far from kMaxClock still, at any realistic count of executions; past
  // half of it the kept pages go, and the clocks start again from 1.
  if (stale_up_to_ > kMaxClock / 2) {
    stale_up_to_ = 0;
    shadow_.DropPages();
  }
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
  // A thread's first epoch is the first above every earlier execution's: 0 is "no access".
  if (state.now.Get(thread) == 0) state.now.Set(thread, stale_up_to_ + 1);
  state.epoch = Epoch(thread, state.now.Get(thread));
  return state;
}

void RaceDetector::Tick(RaceThread thread, ThreadClocks& state) {
  state.now.Tick(thread);
  state.epoch = Epoch(thread, state.now.Get(thread));
}

void RaceDetector::ThreadStarted(RaceThread child, RaceThread parent) {
  ClockOf(child);
  ClockOf(parent);
  threads_[child].now.Join(threads_[parent].now);
  Tick(parent, threads_[parent]);
}

void RaceDetector::ThreadJoined(RaceThread joiner, RaceThread joined) {
  ClockOf(joined);
  ClockOf(joiner).Join(threads_[joined].now);
}

void RaceDetector::Release(RaceThread thread, const void* sync) {
  ThreadClocks& state = StateOf(thread);
  syncs_[sync].Join(state.now);
  Tick(thread, state);
}

void RaceDetector::Acquire(RaceThread thread, const void* sync) {
  VectorClock& clock = ClockOf(thread);
  const auto found = syncs_.find(sync);
  if (found != syncs_.end()) clock.Join(found->second);
}

void RaceDetector::ReleaseShared(RaceThread thread, const void* sync) {
  ThreadClocks& state = StateOf(thread);
  shared_releases_[sync].Join(state.now);
  Tick(thread, state);
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
    Tick(thread, state);
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
    Tick(thread, state);
  }
}

std::optional<Race> RaceDetector::CheckAccess(RaceThread thread, std::uintptr_t address, std::size_t size,
                                              const void* site, bool write, bool atomic, std::uint32_t choice_point) {
  const VectorClock& clock = ClockOf(thread);
  if (!AccessRecord::SiteFits(site)) [[unlikely]] {
    DieOfRaceDetectorLimit("an access's site lies above 2^48");
  }
  const Epoch now(thread, clock.Get(thread));
  const std::size_t length = size == 0 ? 1 : size;
  const auto offset = static_cast<unsigned>(address & 7);
  if (offset + length <= 8) {  // in one granule: Access found it needs the full check
    const std::uintptr_t granule = address >> kGranuleBits;
    const auto bytes = static_cast<std::uint8_t>(((1u << length) - 1) << offset);
    std::optional<Race> race =
        FullCheck(clock, granule, shadow_.Of(granule),
                  AccessRecord(now, site, bytes, static_cast<unsigned>(length), write, atomic), choice_point);
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
    std::optional<Race> race = FullCheck(clock, granule, shadow_.Of(granule),
                                         AccessRecord(now, site, bytes, count, write, atomic), choice_point);
    if (!first && race) {
      first = race;
      first->current.size = size;
    }
    at = stop;
  }
  return first;
}

std::optional<Race> RaceDetector::Free(RaceThread thread, std::uintptr_t begin, std::uintptr_t end, const void* site,
                                       std::uint64_t choice_point) {
  std::optional<Race> first;
  for (std::uintptr_t at = begin; at < end;) {
    const std::uintptr_t stop = std::min(end, ShadowMemory::PageEnd(at));
    if (shadow_.PageTouched(at)) {
      std::optional<Race> race =
          CheckAccess(thread, at, stop - at, site, /*write=*/true, /*atomic=*/false, KeptChoicePoint(choice_point));
      if (!first) first = race;
    }
    at = stop;
  }
  if (first) first->current.size = end - begin;
  shadow_.Forget(begin, end);
  return first;
}

std::optional<Race> RaceDetector::FullCheck(const VectorClock& clock, std::uintptr_t granule,
                                            ShadowMemory::Granule shadow, const AccessRecord& access,
                                            std::uint32_t choice_point) {
  auto known = [](std::uint32_t kept) -> std::uint64_t { return kept == kChoicePointUnknown ? 0 : kept; };
  const CellScan scan = ScanCell(clock, shadow.cell, access, stale_up_to_);
  std::optional<Race> race;
  for (unsigned racing = scan.racing; racing != 0 && !race; racing &= racing - 1) {
    const auto i = static_cast<unsigned>(std::countr_zero(racing));
    const AccessRecord& slot = shadow.cell.slots[i];
    race = Report(
        granule, slot.bytes() & access.bytes(),
        {access.epoch().thread(), access.write(), access.site(), 0, access.atomic(), known(choice_point)},
        {slot.epoch().thread(), slot.write(), slot.site(), slot.size(), slot.atomic(), known(shadow.choice_points[i])});
  }
  const int place = scan.placement.Slot();
  scan.placement.Put(shadow, place >= 0 ? static_cast<unsigned>(place) : shadow_.NextEvicted(granule), access,
                     choice_point);
  return race;
}

std::optional<Race> RaceDetector::Report(std::uintptr_t granule, std::uint8_t common, RaceAccess current,
                                         RaceAccess previous) {
  const auto sites = std::minmax(current.site, previous.site);
  if (!reported_.insert({sites.first, sites.second}).second) return std::nullopt;
  return Race{(granule << kGranuleBits) + static_cast<unsigned>(std::countr_zero(common)), current, previous};
}

}  // namespace sim::internal
