// per_thread_race_address.cpp: the pinned blocks' range, and the running
// thread's copy of an address in it (per_thread_race_address.h).
#include "core/per_thread_race_address.h"

#include <algorithm>
#include <cstddef>

#include "core/thread_local_switch.h"

namespace sim::internal {

void PerThreadRaceAddress::Reset(bool lazy, ThreadPointer installed) {
  *this = PerThreadRaceAddress{};
  if (!lazy || lazy_layout.pinned_count == 0) return;
  std::ptrdiff_t lowest = 0;
  std::ptrdiff_t highest = PTRDIFF_MAX;
  for (std::size_t i = 0; i < lazy_layout.pinned_count; ++i) {
    lowest = std::max(lowest, lazy_layout.pinned[i].lowest_below);
    highest = std::min(highest, lazy_layout.pinned[i].highest_below);
  }
  installed_ = installed;
  begin_ = reinterpret_cast<std::uintptr_t>(installed) - static_cast<std::uintptr_t>(lowest);
  length_ = static_cast<std::uintptr_t>(lowest - highest);
}

const void* PerThreadRaceAddress::InRunningThreadsBlock(std::uintptr_t address, ThreadPointer running) const {
  const auto below = static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(installed_) - address);
  for (std::size_t i = 0; i < lazy_layout.pinned_count; ++i) {
    if (lazy_layout.pinned[i].Holds(below)) return static_cast<const char*>(running) - below;
  }
  return reinterpret_cast<const void*>(address);  // an instrumented module's block: the pass moved it already
}

}  // namespace sim::internal
