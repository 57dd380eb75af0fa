// shadow_memory.cpp: see shadow_memory.h.
#include "race/shadow_memory.h"

namespace sim::internal {
namespace {

// Drops `bytes` from a record; an access with none left is gone.
void DropBytes(AccessRecord& record, std::uint8_t bytes) {
  record.bytes &= static_cast<std::uint8_t>(~bytes);
  if (record.bytes == 0) record = AccessRecord{};
}

}  // namespace

void ShadowMemory::Forget(std::uintptr_t begin, std::uintptr_t end) {
  for (std::uintptr_t address = begin; address < end;) {
    const std::uintptr_t granule = address >> kGranuleBits;
    const std::uintptr_t granule_end = (granule + 1) << kGranuleBits;
    const std::uintptr_t stop = end < granule_end ? end : granule_end;
    const unsigned first = static_cast<unsigned>(address & 7);
    const unsigned count = static_cast<unsigned>(stop - address);
    const auto bytes = static_cast<std::uint8_t>(((1u << count) - 1) << first);
    // Pages never touched have nothing to forget.
    const auto page = pages_.find(granule >> kPageBits);
    if (page != pages_.end()) {
      ShadowCell& cell = page->second->cells[granule & (kCellsPerPage - 1)];
      for (AccessRecord& slot : cell.slots) DropBytes(slot, bytes);
    }
    address = stop;
  }
}

}  // namespace sim::internal
