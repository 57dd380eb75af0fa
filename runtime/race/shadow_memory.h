// shadow_memory.h: for every 8-byte granule of memory the program touched,
// who last wrote it and who last read it, and which of its bytes.
//
// One cell per granule, in pages made on first touch: 4 slots of 16 bytes,
// one 64-byte cache line; beside it a byte for its round of evictions and,
// per slot, the choice point its access ran after (4 bytes, read only when
// the access races: to flip the race there, race_flip.h): 81 bytes of
// shadow per 8-byte granule touched, about 10 per byte (it was 136 with
// 32-byte slots). Each slot keeps the bytes its access covered, so
// two threads that write neighbouring chars of one word do not race.
#ifndef SIM_RUNTIME_RACE_SHADOW_MEMORY_H_
#define SIM_RUNTIME_RACE_SHADOW_MEMORY_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "race/vector_clock.h"

namespace sim::internal {

inline constexpr unsigned kGranuleBits = 3;

// One access as the shadow remembers it, in two words: its epoch, and the
// rest packed into the other. A site is a user-space address, which fits in
// 48 bits on x86-64 and AArch64 (RaceDetector dies loudly of one that does
// not), leaving the top 16 for the bytes, the size and the two flags.
class AccessRecord {
 public:
  AccessRecord() = default;
  // `size` is the access's own bytes in this granule (1 to 8): it stays what
  // a report says when accesses of one site merge their bytes.
  AccessRecord(Epoch epoch, const void* site, std::uint8_t bytes, unsigned size, bool write, bool atomic)
      : epoch_(epoch),
        packed_(reinterpret_cast<std::uintptr_t>(site) | std::uint64_t{bytes} << kBytesShift |
                std::uint64_t{size - 1} << kSizeShift | std::uint64_t{write} << kWriteShift |
                std::uint64_t{atomic} << kAtomicShift) {}

  Epoch epoch() const { return epoch_; }
  // Whether this is an access of the current execution, whose epochs all
  // lie above `stale_up_to` (RaceDetector::Reset): else the slot is free,
  // whether it is empty or kept from an earlier execution.
  bool LiveAfter(Clock stale_up_to) const { return epoch_.clock() > stale_up_to; }
  const void* site() const { return reinterpret_cast<const void*>(packed_ & kSiteMask); }   // the pass's __sim_site
  std::uint8_t bytes() const { return static_cast<std::uint8_t>(packed_ >> kBytesShift); }  // bit i for byte i
  bool write() const { return (packed_ >> kWriteShift & 1) != 0; }
  bool atomic() const { return (packed_ >> kAtomicShift & 1) != 0; }  // an atomic operation's: races only with plain
  // The access's size in the granule, for a report: its own, or what is left
  // of it after Forget dropped bytes.
  unsigned size() const {
    const auto own = static_cast<unsigned>(packed_ >> kSizeShift & 7) + 1;
    const auto left = static_cast<unsigned>(std::popcount(bytes()));
    return own < left ? own : left;
  }

  void AddBytes(std::uint8_t bytes) { packed_ |= std::uint64_t{bytes} << kBytesShift; }
  // An access with none left is gone.
  void DropBytes(std::uint8_t bytes) {
    packed_ &= ~(std::uint64_t{bytes} << kBytesShift);
    if (this->bytes() == 0) *this = AccessRecord{};
  }

  static constexpr unsigned kSiteBits = 48;
  static bool SiteFits(const void* site) { return (reinterpret_cast<std::uintptr_t>(site) >> kSiteBits) == 0; }

  class Questions;

 private:
  static constexpr std::uint64_t kSiteMask = (std::uint64_t{1} << kSiteBits) - 1;
  static constexpr unsigned kBytesShift = kSiteBits;
  static constexpr std::uint64_t kBytesMask = std::uint64_t{0xff} << kBytesShift;
  static constexpr unsigned kSizeShift = kBytesShift + 8;  // 3 bits: size - 1
  static constexpr unsigned kWriteShift = kSizeShift + 3;
  static constexpr unsigned kAtomicShift = kWriteShift + 1;

  Epoch epoch_;
  std::uint64_t packed_ = 0;
};
static_assert(sizeof(AccessRecord) == 16);

// What the detector asks of a slot about one access (access_rules.h), on
// the slot's packed word directly, with masks made once per access: a few
// instructions a question, where the accessors took several times more and
// an access asks each of four slots.
class AccessRecord::Questions {
 public:
  explicit Questions(const AccessRecord& access)
      : epoch_(access.epoch_),
        packed_(access.packed_),
        atomic_(packed_ & kAtomicBit),
        // The bits of a slot that keep `access` from superseding it: a byte
        // it does not cover, a write if it is a read, and (flipped by
        // atomic_) a plain access if it is atomic.
        not_supersedable_((~packed_ & kBytesMask) | (~packed_ & kWriteBit) | atomic_) {}

  bool SameThread(const AccessRecord& slot) const { return slot.epoch_.thread() == epoch_.thread(); }
  // The same thread at the same clock, site, size and kind: one record may
  // stand for both, its bytes the union of theirs.
  bool SameAccess(const AccessRecord& slot) const {
    return slot.epoch_ == epoch_ && ((slot.packed_ ^ packed_) & ~kBytesMask) == 0;
  }
  // Whether the access, were it ordered after the slot's, would make it
  // redundant: it covers the slot's bytes, and is neither a read that would
  // stand for a write nor an atomic access that would stand for a plain one
  // (a later access racing with the slot's would then go unseen).
  bool CanSupersede(const AccessRecord& slot) const { return ((slot.packed_ ^ atomic_) & not_supersedable_) == 0; }
  // Whether the two race unless one happened before the other: a common
  // byte, one of them writes, not both atomic.
  bool Conflicts(const AccessRecord& slot) const {
    const std::uint64_t both = slot.packed_ & packed_;
    return (both & kBytesMask) != 0 && ((slot.packed_ | packed_) & kWriteBit) != 0 && (both & kAtomicBit) == 0;
  }

 private:
  static constexpr std::uint64_t kWriteBit = std::uint64_t{1} << kWriteShift;
  static constexpr std::uint64_t kAtomicBit = std::uint64_t{1} << kAtomicShift;

  Epoch epoch_;
  std::uint64_t packed_;
  std::uint64_t atomic_;
  std::uint64_t not_supersedable_;
};

// The accesses of one granule that a later access may still race with, as
// TSan keeps them: a few slots, each one access (or several of one thread's
// at one site and clock, merged). A new access takes the slot of one it
// supersedes, else a free one, else the next in turn (an eviction, which
// can hide a race, never invent one). A cell is one cache line; whose turn
// it is, a byte elsewhere in its page (ShadowMemory::NextEvicted).
struct alignas(64) ShadowCell {
  static constexpr unsigned kSlots = 4;
  AccessRecord slots[kSlots];
};
static_assert(sizeof(ShadowCell) == 64);

inline constexpr std::uint32_t kChoicePointUnknown = ~std::uint32_t{0};

class ShadowMemory {
 public:
  // The cell of `granule` (address >> kGranuleBits), made on first use.
  // Pages are found through a small direct-mapped cache: a loop that
  // alternates between arrays missed a last-page cache at every access.
  ShadowCell& At(std::uintptr_t granule) { return PageOf(granule).cells[granule & (kCellsPerPage - 1)]; }
  // The cell and its slots' choice points (kChoicePointUnknown where the
  // execution had more than 32 bits of them).
  struct Granule {
    ShadowCell& cell;
    std::uint32_t* choice_points;  // one per slot
  };
  [[gnu::always_inline]] Granule Of(std::uintptr_t granule) {
    Page& page = PageOf(granule);
    const std::uintptr_t index = granule & (kCellsPerPage - 1);
    return {page.cells[index], page.choice_points[index]};
  }
  // Which slot the full cell of `granule` gives up next, each in turn. The
  // turn is kept out of the cell's cache line, which has no room left, and
  // is wanted only when the cell is full. (One turn for the whole shadow
  // instead changed which earlier access a report names, or whether it
  // finds one, far more often.)
  unsigned NextEvicted(std::uintptr_t granule) {
    std::uint8_t& turn = PageOf(granule).next_evicted[granule & (kCellsPerPage - 1)];
    const unsigned slot = turn;
    turn = static_cast<std::uint8_t>((turn + 1) % ShadowCell::kSlots);
    return slot;
  }
  // Freed memory drops its history: a new object there is not racing the
  // old one. Bytes [begin, end).
  void Forget(std::uintptr_t begin, std::uintptr_t end);
  // Whether this execution has touched the page that holds byte `address`,
  // and the first byte past that page: a check of a whole freed block
  // skips the pages nobody touched without making them.
  bool PageTouched(std::uintptr_t address) { return UsedPage(address >> (kGranuleBits + kPageBits)) != nullptr; }
  static std::uintptr_t PageEnd(std::uintptr_t address) {
    return ((address >> (kGranuleBits + kPageBits)) + 1) << (kGranuleBits + kPageBits);
  }
  // Forgets every access. The pages stay, up to kKeptPages, for the next
  // execution, their slots as they were: the next execution's epochs lie
  // above every one in them (RaceDetector::Reset), so they count as free.
  void Clear() {
    if (pages_.size() > kKeptPages) pages_.clear();
    ++generation_;
    for (CachedPage& cached : cache_) cached = CachedPage{};
  }
  // Gives every page back: the next use of one maps it anew, every slot empty.
  void DropPages() {
    pages_.clear();
    for (CachedPage& cached : cache_) cached = CachedPage{};
  }

 private:
  // A page shadows 4 KiB of the program's memory, as the system pages it
  // (41 KB of shadow): a program touches stacks, heap and globals sparsely,
  // and pages of 32 KiB (331 KB of shadow each, allocated and zeroed) made a
  // whole program's process with races=1 spend twice the system time
  // (sim-run --seeds 300 of leveldb_correct: 3.0 s against 1.3 s).
  static constexpr unsigned kPageBits = 9;
  static constexpr std::uintptr_t kCellsPerPage = std::uintptr_t{1} << kPageBits;
  struct Page {
    ShadowCell cells[kCellsPerPage];
    std::uint8_t next_evicted[kCellsPerPage];
    std::uint32_t choice_points[kCellsPerPage][ShadowCell::kSlots];
  };
  // A page's memory, mapped for it: zero, so every slot free, without a
  // write, and the system's pages behind it made only where a cell is
  // touched. (Allocated and zeroed, each of a whole program's shadow pages
  // cost ten page faults, most of them for cells nothing touched; and
  // explore() zeroed every page it used again in every execution, 42% of
  // the instructions of 2 threads' 10 locked increments.)
  struct UnmapPage {
    void operator()(Page* page) const;
  };
  struct PageStorage {
    std::unique_ptr<Page, UnmapPage> page;
    std::uint64_t generation = 0;  // the Clear it was last used after
  };
  static constexpr std::size_t kKeptPages = 2048;  // 85 MB
  struct CachedPage {
    std::uintptr_t key = ~std::uintptr_t{0};
    Page* page = nullptr;
  };
  static constexpr std::size_t kCachedPages = 256;
  [[gnu::always_inline]] Page& PageOf(std::uintptr_t granule) {
    const std::uintptr_t key = granule >> kPageBits;
    CachedPage& cached = cache_[key % kCachedPages];
    if (cached.key != key) [[unlikely]] {
      cached = {key, &PageAt(key)};
    }
    return *cached.page;
  }
  [[gnu::noinline]] Page& PageAt(std::uintptr_t key) {
    PageStorage& storage = pages_[key];
    if (storage.page == nullptr) {
      storage.page.reset(MapPage());
    } else if (storage.generation != generation_) {
      // Evictions take turns from the first slot in every execution, as in
      // a page never used before: which access a report names must not
      // depend on the executions before it.
      std::fill(std::begin(storage.page->next_evicted), std::end(storage.page->next_evicted), 0);
    }
    storage.generation = generation_;
    return *storage.page;
  }
  static Page* MapPage();
  // The page of `key`, if this execution has used it.
  Page* UsedPage(std::uintptr_t key) {
    const auto found = pages_.find(key);
    return found != pages_.end() && found->second.generation == generation_ ? found->second.page.get() : nullptr;
  }
  std::unordered_map<std::uintptr_t, PageStorage> pages_;
  std::uint64_t generation_ = 1;
  CachedPage cache_[kCachedPages];
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_SHADOW_MEMORY_H_
