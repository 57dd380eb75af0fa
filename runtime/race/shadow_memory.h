// shadow_memory.h: for every 8-byte granule of memory the program touched,
// who last wrote it and who last read it, and which of its bytes.
//
// One cell per granule, in pages made on first touch: 4 slots of 32
// bytes, 136 bytes of shadow per 8 bytes touched (to be packed once the
// detector runs in worlds and its cost is measured). Each slot keeps the
// bytes its access covered, so two threads that write neighbouring chars
// of one word do not race.
#ifndef SIM_RUNTIME_RACE_SHADOW_MEMORY_H_
#define SIM_RUNTIME_RACE_SHADOW_MEMORY_H_

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "race/vector_clock.h"

namespace sim::internal {

inline constexpr unsigned kGranuleBits = 3;

// One access as the shadow remembers it.
struct AccessRecord {
  Epoch epoch;                 // empty: none
  const void* site = nullptr;  // the pass's __sim_site, for the report
  std::uint8_t bytes = 0;      // of the granule, bit i for byte i
  bool write = false;
  bool atomic = false;  // an atomic operation's: races only with plain accesses
  // The choice point after which it ran, for flipping a race it makes
  // (strategy/race_flip.h); kChoicePointUnknown past 32 bits.
  std::uint32_t choice_point = 0;
};

inline constexpr std::uint32_t kChoicePointUnknown = ~std::uint32_t{0};

// The accesses of one granule that a later access may still race with, as
// TSan keeps them: a few slots, each one access. A new access takes the
// slot of one it supersedes, else a free one, else the next in turn (an
// eviction, which can hide a race, never invent one).
struct ShadowCell {
  static constexpr unsigned kSlots = 4;
  AccessRecord slots[kSlots];
  std::uint8_t next_evicted = 0;
};

class ShadowMemory {
 public:
  // The cell of `granule` (address >> kGranuleBits), made on first use.
  // Pages are found through a small direct-mapped cache: a loop that
  // alternates between arrays missed a last-page cache at every access.
  ShadowCell& At(std::uintptr_t granule) {
    const std::uintptr_t key = granule >> kPageBits;
    CachedPage& cached = cache_[key % kCachedPages];
    if (cached.key != key) cached = {key, &PageAt(key)};
    return cached.page->cells[granule & (kCellsPerPage - 1)];
  }
  // Freed memory drops its history: a new object there is not racing the
  // old one. Bytes [begin, end).
  void Forget(std::uintptr_t begin, std::uintptr_t end);
  void Clear() {
    pages_.clear();
    for (CachedPage& cached : cache_) cached = CachedPage{};
  }

 private:
  static constexpr unsigned kPageBits = 12;
  static constexpr std::uintptr_t kCellsPerPage = std::uintptr_t{1} << kPageBits;
  struct Page {
    ShadowCell cells[kCellsPerPage];
  };
  struct CachedPage {
    std::uintptr_t key = ~std::uintptr_t{0};
    Page* page = nullptr;
  };
  static constexpr std::size_t kCachedPages = 64;
  Page& PageAt(std::uintptr_t key) {
    std::unique_ptr<Page>& page = pages_[key];
    if (page == nullptr) page = std::make_unique<Page>();
    return *page;
  }
  std::unordered_map<std::uintptr_t, std::unique_ptr<Page>> pages_;
  CachedPage cache_[kCachedPages];
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_SHADOW_MEMORY_H_
