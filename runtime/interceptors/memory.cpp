// memory.cpp: free, realloc and munmap, where the memory of
// the user's objects ends. A world forgets the models of the sync objects in
// memory that is freed (World::ForgetModelsIn), so a new object at the same
// address (a std::future's shared state, a heap std::mutex) starts fresh, as
// it does natively, where the state lives in the object's own bytes.
// operator delete reaches free through libstdc++'s PLT; glibc's own internal
// frees (fclose's) do not come here, which is why fclose is intercepted too
// (interceptors/stdio.cpp). Allocation is not intercepted; a block of the
// runtime's own heap (core/runtime_heap.h) goes back there.
//
// Three constraints shape this file:
// - free runs everywhere: before main, in the dynamic loader, on real
//   threads while a world runs, and in the runtime's own bookkeeping inside
//   a world. Only a call on a simulated thread looks at the world, and the
//   world ignores the frees it causes while disposing of models.
// - The real free is found with dlsym, which may itself free: a free that
//   arrives while the lookup is under way leaks its block instead of
//   recursing. Outside a world free is a load, two tests and a jump to the
//   real one (10 instructions a free more, no measurable time;
//   docs/performance.md).
// - The definitions are weak (and stay global through
//   localize_archive.sh): a program that links its own allocator statically
//   keeps its free, and the world then sees no frees. Interposition on
//   shared libraries is unaffected: the dynamic loader binds a weak
//   definition in the executable as it binds a strong one.
#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/runtime_heap.h"
#include "core/world.h"
#include "interceptors/real_function.h"
#include "race/race_detector.h"

using namespace sim::internal;

extern "C" void __libc_free(void* pointer) noexcept;  // glibc's free, under the name it exports too

namespace {
RealFunction<void*(void*, std::size_t)> real_realloc("realloc");
RealFunction<int(void*, std::size_t)> real_munmap("munmap");

using FreeFunction = void (*)(void*) noexcept;
std::atomic<FreeFunction> real_free{nullptr};
std::atomic<bool> resolving_free{false};

// The first free: finds the real one. A free that arrives while that is
// under way (dlsym freeing, or another real thread at the same moment)
// leaks its block.
[[gnu::noinline]] void FreeBeforeResolved(void* pointer) noexcept {
  if (resolving_free.exchange(true)) return;
  auto function = reinterpret_cast<FreeFunction>(ResolveRealFunction("free", nullptr));
  real_free.store(function, std::memory_order_release);
  resolving_free.store(false);
  function(pointer);
}

// Resolved before main, not at their first call: glibc's dlerror() formats
// its message with asprintf (realloc, free) while it holds the thread's
// dlerror result, and a first call resolved there runs dlsym, which frees
// that result under dlerror's feet (a use after free that corrupts the
// heap). oneTBB calls dlerror on its first parallel_for, inside a world. A
// free or realloc that comes before this constructor (another library's)
// is not inside dlerror.
[[gnu::constructor]] void ResolveMemoryFunctionsBeforeMain() {
  if (real_free.load(std::memory_order_acquire) == nullptr) FreeBeforeResolved(nullptr);
  real_realloc.Resolve();
  real_munmap.Resolve();
}

// glibc 2.36 x86-64's malloc: MALLOC_ALIGNMENT, MINSIZE, and the chunk's
// size word just below the block, whose low three bits are flags.
constexpr std::uintptr_t kGlibcAlignment = 16;
constexpr std::size_t kGlibcMinimumChunk = 32;
constexpr std::size_t kGlibcChunkFlags = 7;

// The usable size of the heap block at `block`, about to be freed or
// moved, or 0 when it cannot be a block of glibc's. glibc's free and
// realloc check a pointer's alignment and its chunk's size before they
// read past the chunk's header, and abort ("free(): invalid pointer", a
// double free, a free of a bad pointer): that is how the program's heap
// bug is reported. malloc_usable_size checks nothing, and would crash
// reading through a bad header first. Another allocator's
// malloc_usable_size is asked as it is.
std::size_t BlockSize(char* block) {
  const FreeFunction next_free = real_free.load(std::memory_order_relaxed);
  if (next_free == nullptr || next_free == &__libc_free) {
    const auto address = reinterpret_cast<std::uintptr_t>(block);
    if (address % kGlibcAlignment != 0) return 0;
    const std::size_t chunk = reinterpret_cast<const std::size_t*>(block)[-1] & ~kGlibcChunkFlags;
    if (chunk < kGlibcMinimumChunk || chunk % kGlibcAlignment != 0 || address > UINTPTR_MAX - chunk) return 0;
  }
  return malloc_usable_size(block);
}

// The models in the heap block at `block`, which is about to be freed by
// the call that returns to `freed_from`. Asks the allocator for the
// block's size only when a model lies at or above it, or the race detector
// is on. Out of line: free's own path outside a world stays a few
// instructions with no frame.
[[gnu::noinline]] void ForgetModelsInBlock(char* block, const void* freed_from) {
  World& world = *current_world;
  const bool races = world.races() != nullptr;
  const void* first = world.FirstModelAtOrAbove(block);
  if (!races && first == nullptr) return;
  const std::size_t size = BlockSize(block);
  // A write of the whole block, as TSan takes a free; then a new object
  // there is not racing this one.
  if (races) world.CheckFreeForRace(block, size, freed_from);
  if (first != nullptr && first < block + size) world.ForgetModelsIn(block, block + size);
}

}  // namespace

extern "C" {

__attribute__((weak)) void free(void* pointer) noexcept {
  if (InRuntimeHeap(pointer)) [[unlikely]]
    return RuntimeHeapFree(pointer);
  if (pointer != nullptr && InWorld()) [[unlikely]]
    ForgetModelsInBlock(static_cast<char*>(pointer), __builtin_return_address(0));
  const FreeFunction function = real_free.load(std::memory_order_acquire);
  if (function == nullptr) [[unlikely]]
    return FreeBeforeResolved(pointer);
  function(pointer);
}

// A block that moves (or realloc(p, 0) frees) ends every object in it;
// one that shrinks in place, those beyond the new size: the bytes freed
// are written, to the race detector, as free's are. A failed realloc
// leaves the block as it was.
__attribute__((weak)) void* realloc(void* pointer, std::size_t size) noexcept {
  if (InRuntimeHeap(pointer)) [[unlikely]]
    return RuntimeHeapReallocate(pointer, size);
  if (pointer == nullptr || !InWorld()) return real_realloc(pointer, size);
  World& world = *current_world;
  auto* block = static_cast<char*>(pointer);
  // The block's size before realloc changes it; only when a model may be in it.
  const void* first = world.FirstModelAtOrAbove(block);
  const bool races = world.races() != nullptr;
  const std::size_t old_size = first != nullptr || races ? BlockSize(block) : 0;
  void* moved = real_realloc(pointer, size);
  if (moved == nullptr && size != 0) return moved;
  char* const freed = moved == pointer ? block + std::min(size, old_size) : block;
  if (freed == block + old_size) return moved;
  if (races) {
    world.CheckFreeForRace(freed, static_cast<std::size_t>(block + old_size - freed), __builtin_return_address(0));
  }
  // The models only: their objects' bytes are not read here.
  if (first != nullptr && first < block + old_size) world.ForgetModelsIn(freed, block + old_size);
  return moved;
}

// This file's free under a name a program cannot take: the runtime's heap
// compares it with `free` to learn whether the program kept its own.
void __sim_free_interceptor(void* pointer) noexcept __attribute__((alias("free")));

__attribute__((weak)) int munmap(void* address, std::size_t length) noexcept {
  if (InWorld()) current_world->ForgetModelsIn(address, static_cast<char*>(address) + length);
  if (InWorld() && current_world->races() != nullptr) {
    const auto begin = reinterpret_cast<std::uintptr_t>(address);
    current_world->races()->Forget(begin, begin + length);
  }
  return real_munmap(address, length);
}

}  // extern "C"
