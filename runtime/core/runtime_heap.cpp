// runtime_heap.cpp: size-class free lists over one reservation (see
// runtime_heap.h).
//
// Simple on purpose: the runtime allocates little once an execution is
// under way (its hot paths allocate nothing), and what it frees it mostly
// allocates again at the same size (records, strings, the next execution's
// vectors). A block's class sits in a 16-byte header in front of it; a
// freed block goes on its class's list and is never split or merged. The
// reservation is committed as the bump pointer reaches it, and a large
// freed block gives its pages back.
#include "core/runtime_heap.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>

#include "common/exit_status.h"
#include "core/check.h"

// The free interceptor (interceptors/memory.cpp) under a name of its own:
// `free` is the program's when it links its own allocator statically.
extern "C" void __sim_free_interceptor(void* block) noexcept;
extern "C" int __register_atfork(void (*prepare)(), void (*parent)(), void (*child)(), void* dso_handle);
extern "C" void* __dso_handle;

namespace sim::internal {
namespace {

constexpr std::size_t kHeader = 16;
constexpr std::uint32_t kMagic = 0x5e4a11c5;
// Classes: every multiple of 16 up to 1 KiB, then four to each doubling.
constexpr std::size_t kSmallLimit = 1024;
constexpr int kSmallClasses = kSmallLimit / 16;
constexpr int kLargestPower = 32;  // blocks up to 8 GiB would have classes; the reservation bounds them first
constexpr int kClasses = kSmallClasses + (kLargestPower - 10) * 4;
// A freed block at least this large gives its pages back (they fault in
// again on reuse): the trace of a long told run is not held twice.
constexpr std::size_t kReturnPagesFrom = 256 * 1024;
constexpr std::size_t kCommitStep = 4 << 20;

struct Header {
  std::uint32_t size_class;
  std::uint32_t magic;
  std::uint64_t unused;
};
static_assert(sizeof(Header) == kHeader);

struct FreeBlock {
  FreeBlock* next;
};

// The bytes of class `size_class`, its header included.
std::size_t ClassBytes(int size_class) {
  if (size_class < kSmallClasses) return static_cast<std::size_t>(size_class + 1) * 16;
  const int power = 10 + (size_class - kSmallClasses) / 4;  // 2^power < bytes <= 2^(power+1)
  const std::size_t step = std::size_t{1} << (power - 2);
  return step * static_cast<std::size_t>(5 + (size_class - kSmallClasses) % 4);
}

// The smallest class that holds `bytes` (header included); -1 past the largest.
int ClassFor(std::size_t bytes) {
  if (bytes <= kSmallLimit) return static_cast<int>((bytes + 15) / 16) - 1;
  const int power = 63 - std::countl_zero(bytes - 1);  // 2^power < bytes <= 2^(power+1)
  if (power >= kLargestPower) return -1;
  const std::size_t step = std::size_t{1} << (power - 2);
  const std::size_t steps = (bytes + step - 1) / step;  // 5..8
  return kSmallClasses + (power - 10) * 4 + static_cast<int>(steps - 5);
}

class Heap {
 public:
  void* Allocate(std::size_t size) {
    if (size > kRuntimeHeapBytes) return nullptr;
    // At least a free list's link, which a freed block holds.
    const int size_class = ClassFor((size < sizeof(FreeBlock) ? sizeof(FreeBlock) : size) + kHeader);
    if (size_class < 0) return nullptr;
    Lock();
    char* block = nullptr;
    if (FreeBlock* reused = free_[size_class]) {
      free_[size_class] = reused->next;
      block = reinterpret_cast<char*>(reused);
    } else {
      block = Carve(ClassBytes(size_class));
      if (block != nullptr) {
        block += kHeader;
        *reinterpret_cast<Header*>(block - kHeader) = {static_cast<std::uint32_t>(size_class), kMagic, 0};
      }
    }
    Unlock();
    return block;
  }

  void Free(void* pointer) {
    auto* block = static_cast<char*>(pointer);
    const Header& header = *reinterpret_cast<Header*>(block - kHeader);
    if (header.magic != kMagic) Corrupt();
    const std::size_t bytes = ClassBytes(static_cast<int>(header.size_class));
    if (bytes >= kReturnPagesFrom) ReturnPages(block, bytes - kHeader);
    Lock();
    auto* freed = reinterpret_cast<FreeBlock*>(block);
    freed->next = free_[header.size_class];
    free_[header.size_class] = freed;
    Unlock();
  }

  std::size_t UsableSize(const void* pointer) const {
    const Header& header = *reinterpret_cast<const Header*>(static_cast<const char*>(pointer) - kHeader);
    return ClassBytes(static_cast<int>(header.size_class)) - kHeader;
  }

  // Held across fork, so that a child never starts with it taken by a
  // thread it does not have.
  void Lock() {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) __builtin_ia32_pause();
    }
  }
  void Unlock() { locked_.store(false, std::memory_order_release); }

  // Reserves the range; false when it cannot be reserved (address space
  // limited by ulimit -v).
  bool Reserve() {
    void* range = mmap(nullptr, kRuntimeHeapBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) return false;
    next_ = committed_ = static_cast<char*>(range);
    end_ = next_ + kRuntimeHeapBytes;
    runtime_heap_base = reinterpret_cast<std::uintptr_t>(range);
    return true;
  }

 private:
  // `bytes` from the bump pointer, committing more of the reservation as
  // it goes; null when the reservation is spent.
  char* Carve(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(end_ - next_)) return nullptr;
    if (next_ + bytes > committed_) {
      const std::size_t wanted = static_cast<std::size_t>(next_ + bytes - committed_);
      std::size_t grow = (wanted + kCommitStep - 1) / kCommitStep * kCommitStep;
      if (grow > static_cast<std::size_t>(end_ - committed_)) grow = static_cast<std::size_t>(end_ - committed_);
      if (mprotect(committed_, grow, PROT_READ | PROT_WRITE) != 0) return nullptr;
      committed_ += grow;
    }
    char* block = next_;
    next_ += bytes;
    return block;
  }

  static void ReturnPages(char* block, std::size_t bytes) {
    const std::size_t page = 4096;
    // Keep the first page: it holds the free list's link.
    const auto first = (reinterpret_cast<std::uintptr_t>(block) + page) / page * page;
    const auto last = (reinterpret_cast<std::uintptr_t>(block) + bytes) / page * page;
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  }

  [[noreturn]] static void Corrupt() {
    SIM_UNREACHABLE("a block of the runtime's own heap was freed twice, or its header overwritten");
  }

  std::atomic<bool> locked_{false};
  char* next_ = nullptr;
  char* committed_ = nullptr;
  char* end_ = nullptr;
  FreeBlock* free_[kClasses] = {};
};

// Constant-initialized: the runtime allocates before any constructor runs.
constinit Heap heap;

enum class State { kUnknown, kOn, kOff };
std::atomic<State> state{State::kUnknown};

// On when the free interceptor is the process's free and the range could be
// reserved. Decided at the first allocation, which may come from any
// runtime code, before main or inside a world.
[[gnu::noinline]] State Decide() {
  static std::atomic<bool> deciding{false};
  if (deciding.exchange(true)) {
    // Another thread decides now: until it has, allocate as before.
    return State::kOff;
  }
  // Laundered: the compiler takes two declared functions for two
  // addresses, and would fold the comparison to false.
  void (*bound_free)(void*) = &free;
  asm("" : "+r"(bound_free));
  const bool own_free = bound_free == &__sim_free_interceptor;
  const State decided = own_free && heap.Reserve() ? State::kOn : State::kOff;
  if (decided == State::kOn) {
    // pthread_atfork itself lives in libc_nonshared.a, which the runtime's
    // archives do not link; it is this call with this module's handle.
    __register_atfork([] { heap.Lock(); }, [] { heap.Unlock(); }, [] { heap.Unlock(); }, &__dso_handle);
  }
  state.store(decided, std::memory_order_release);
  return decided;
}

bool HeapOn() {
  State current = state.load(std::memory_order_acquire);
  if (current == State::kUnknown) [[unlikely]]
    current = Decide();
  return current == State::kOn;
}

}  // namespace

bool RuntimeHeapIsOn() { return HeapOn(); }

void RuntimeHeapFree(void* block) { heap.Free(block); }

void* RuntimeHeapReallocate(void* block, std::size_t size) {
  if (size == 0) {  // as glibc's realloc: the block is freed
    heap.Free(block);
    return nullptr;
  }
  const std::size_t usable = heap.UsableSize(block);
  if (size <= usable) return block;
  void* moved = heap.Allocate(size);
  if (moved == nullptr) moved = std::malloc(size);
  if (moved == nullptr) return nullptr;
  std::memcpy(moved, block, usable < size ? usable : size);
  heap.Free(block);
  return moved;
}

}  // namespace sim::internal

using namespace sim::internal;

// The runtime's `new` and sized `delete` (use_runtime_heap.sh renames its
// references to operator new(size_t) and operator delete(void*, size_t) to
// these). Past the reservation, or with the heap off, the program's malloc.
extern "C" void* __sim_runtime_new(std::size_t size) {
  if (HeapOn()) {
    if (void* block = heap.Allocate(size)) return block;
  }
  if (void* block = std::malloc(size != 0 ? size : 1)) return block;
  Die(sim::exit_status::kEnvironment, {"out of memory for the runtime's own records"});
}

// A block not of this heap came from the program's malloc (the heap is off,
// or was full) or from the program itself (an object it handed over).
extern "C" void __sim_runtime_delete(void* block) noexcept {
  if (InRuntimeHeap(block)) return heap.Free(block);
  std::free(block);
}

extern "C" void __sim_runtime_delete_sized(void* block, std::size_t) noexcept { __sim_runtime_delete(block); }
