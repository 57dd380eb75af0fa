// access_rules.h: what an access finds in its granule's cell and where it
// goes there; and the path of an access that no other thread's slot
// matters to, inline so that the world's check of every access
// (scheduler.cpp, through RaceDetector::AccessedWithoutRace) takes it
// without a call. What one access asks of another is
// AccessRecord::Questions (shadow_memory.h).
#ifndef SIM_RUNTIME_RACE_ACCESS_RULES_H_
#define SIM_RUNTIME_RACE_ACCESS_RULES_H_

#include <bit>
#include <cstdint>

#include "race/shadow_memory.h"
#include "race/vector_clock.h"

namespace sim::internal {

// Where an access goes in its cell, from a scan of its slots: merged into a
// record of the same thread, clock, site, size and kind (a loop over an
// array's bytes at one site would otherwise take a slot per byte and evict
// the others: one record stands for all, since an access racing with any of
// them races with it on the same bytes), else over one it supersedes (one
// that happened before it and that it CanSupersede), else a free slot, else one
// evicted. The other superseded slots are emptied: the record it goes to
// stands for them, since whatever does not know its epoch does not know
// theirs either.
struct Placement {
  Clock stale_up_to = 0;  // the epochs of earlier executions: free slots (AccessRecord::LiveAfter)
  unsigned superseded = 0;  // bit i: slot i
  int merge_into = -1;
  int free_slot = -1;

  // Whether slot i is free (none to ask about), noting the first such.
  [[gnu::always_inline]] bool Free(const AccessRecord& slot, unsigned i) {
    if (slot.LiveAfter(stale_up_to)) return false;
    if (free_slot < 0) free_slot = static_cast<int>(i);
    return true;
  }
  // The slot it takes, or -1: one to evict.
  [[gnu::always_inline]] int Slot() const {
    if (merge_into >= 0) return merge_into;
    if (superseded != 0) return std::countr_zero(superseded);
    return free_slot;
  }
  // A merged record keeps the choice point of the first access it stands
  // for: a flip there still runs the other thread's access before them all.
  [[gnu::always_inline]] void Put(ShadowMemory::Granule shadow, unsigned place, const AccessRecord& access,
                                  std::uint32_t choice_point) const {
    for (unsigned others = superseded & ~(1u << place); others != 0; others &= others - 1) {
      shadow.cell.slots[std::countr_zero(others)] = AccessRecord{};
    }
    AccessRecord& record = shadow.cell.slots[place];
    if (merge_into < 0) {
      record = access;
      shadow.choice_points[place] = choice_point;
    } else if ((record.bytes() & access.bytes()) != access.bytes()) {
      record.AddBytes(access.bytes());
    }
  }
};

// What an access finds in its granule's cell, in one pass over its slots:
// where it goes (Placement), and the slots it races with (bit i: slot i; an
// access reports only the first whose pair of sites was not reported yet).
// Whether another thread's slot happened before the access is asked only
// where the answer matters: a slot it conflicts with or might supersede.
struct CellScan {
  Placement placement;
  unsigned racing = 0;
};

[[gnu::always_inline]] inline CellScan ScanCell(const VectorClock& clock, const ShadowCell& cell,
                                                const AccessRecord& access, Clock stale_up_to) {
  const AccessRecord::Questions ask(access);
  CellScan scan;
  scan.placement.stale_up_to = stale_up_to;
  for (unsigned i = 0; i < ShadowCell::kSlots; ++i) {
    const AccessRecord& slot = cell.slots[i];
    if (scan.placement.Free(slot, i)) continue;
    const bool conflict = ask.Conflicts(slot);
    const bool supersedable = ask.CanSupersede(slot);
    if (scan.placement.merge_into < 0 && ask.SameAccess(slot)) scan.placement.merge_into = static_cast<int>(i);
    if (!conflict && !supersedable) continue;
    const bool ordered = ask.SameThread(slot) || clock.Knows(slot.epoch());
    if (!ordered && conflict) scan.racing |= 1u << i;
    if (ordered && supersedable) scan.placement.superseded |= 1u << i;
  }
  return scan;
}

// FastTrack's same-epoch case, and more: what RaceDetector::FullCheck does, without its questions, when no other
// thread's slot matters to `access` (none conflicts with it, none is one it might supersede). Then nothing can race,
// its own thread's slots happened before it, and whether another's did is never asked. A thread that touches again what
// it touched since its last release, alone, takes this path: a loop over an array, or
// ++x (its read takes a slot, its write supersedes it). Whatever it does
// the full check would have done, slot for slot, so that the reports stay
// the same: a repeat is not simply skipped, since the full check of a
// repeat may report a race its first time did not (an access reports only
// its first race, so another thread's access since may have raced with
// both and named only the other). Returns false, having changed nothing,
// where the full check must decide: another thread's slot matters, or the
// access would evict one. Forced inline, into
// RaceDetector::AccessedWithoutRace.
[[gnu::always_inline]] inline bool UpdatedByItsOwnThreadAlone(ShadowMemory::Granule shadow, const AccessRecord& access,
                                                              std::uint32_t choice_point, Clock stale_up_to) {
  const ShadowCell& cell = shadow.cell;
  const AccessRecord::Questions ask(access);
  Placement placement;
  placement.stale_up_to = stale_up_to;
  for (unsigned i = 0; i < ShadowCell::kSlots; ++i) {
    const AccessRecord& slot = cell.slots[i];
    if (placement.Free(slot, i)) continue;
    const bool supersedable = ask.CanSupersede(slot);
    if (!ask.SameThread(slot)) {
      if (supersedable || ask.Conflicts(slot)) return false;
      continue;
    }
    if (placement.merge_into < 0 && ask.SameAccess(slot)) placement.merge_into = static_cast<int>(i);
    if (supersedable) placement.superseded |= 1u << i;
  }
  const int place = placement.Slot();
  if (place < 0) return false;
  placement.Put(shadow, static_cast<unsigned>(place), access, choice_point);
  return true;
}

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_ACCESS_RULES_H_
