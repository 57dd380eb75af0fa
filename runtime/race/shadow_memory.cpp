// shadow_memory.cpp: see shadow_memory.h.
#include "race/shadow_memory.h"

#include <sys/mman.h>

namespace sim::internal {

ShadowMemory::Page* ShadowMemory::MapPage() {
  void* memory =
      mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) DieOfRaceDetectorLimit("the system refused memory for the shadow (mmap failed)");
  return static_cast<Page*>(memory);
}

void ShadowMemory::UnmapPage::operator()(Page* page) const { munmap(page, sizeof(Page)); }

void ShadowMemory::Forget(std::uintptr_t begin, std::uintptr_t end) {
  // Page by page: a finished thread's whole stack is forgotten, most of it
  // never touched.
  for (std::uintptr_t address = begin; address < end;) {
    const std::uintptr_t key = (address >> kGranuleBits) >> kPageBits;
    const std::uintptr_t page_end = (key + 1) << (kPageBits + kGranuleBits);
    const std::uintptr_t stop_in_page = end < page_end ? end : page_end;
    Page* const page = UsedPage(key);
    if (page == nullptr) {
      address = stop_in_page;
      continue;
    }
    while (address < stop_in_page) {
      const std::uintptr_t granule = address >> kGranuleBits;
      const std::uintptr_t granule_end = (granule + 1) << kGranuleBits;
      const std::uintptr_t stop = stop_in_page < granule_end ? stop_in_page : granule_end;
      const auto count = static_cast<unsigned>(stop - address);
      const auto bytes = static_cast<std::uint8_t>(((1u << count) - 1) << (address & 7));
      for (AccessRecord& slot : page->cells[granule & (kCellsPerPage - 1)].slots) slot.DropBytes(bytes);
      address = stop;
    }
  }
}

}  // namespace sim::internal
