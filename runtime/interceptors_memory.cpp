// interceptors_memory.cpp: free, realloc and munmap, where the memory of
// the user's objects ends. A world forgets the models of the sync objects in
// memory that is freed (World::ForgetModelsIn), so a new object at the same
// address (a std::future's shared state, a heap std::mutex) starts fresh, as
// it does natively, where the state lives in the object's own bytes.
// operator delete reaches free through libstdc++'s PLT; glibc's own internal
// frees (fclose's) do not come here, which is why fclose is intercepted too
// (interceptors_stdio.cpp). Allocation is not intercepted.
//
// Three constraints shape this file:
// - free runs everywhere: before main, in the dynamic loader, on real
//   threads while a world runs, and in the runtime's own bookkeeping inside
//   a world. Only a call on a simulated thread looks at the world, and the
//   world ignores the frees it causes while disposing of models.
// - The real free is found with dlsym, which may itself free: a free that
//   arrives while the lookup is under way leaks its block instead of
//   recursing. Outside a world free is a load, two tests and a jump to the
//   real one (1.4 ns a free more; docs/performance.md).
// - The definitions are weak (and stay global through
//   localize_archive.sh): a program that links its own allocator statically
//   keeps its free, and the world then sees no frees. Interposition on
//   shared libraries is unaffected: the dynamic loader binds a weak
//   definition in the executable as it binds a strong one.
#include <malloc.h>
#include <sys/mman.h>

#include <atomic>
#include <cstddef>

#include "real_function.h"
#include "world.h"

using namespace sim::internal;

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

// The models in the heap block at `block`, which is about to be freed.
// Asks the allocator for the block's size only when a model lies at or
// above it. Out of line: free's own path outside a world stays a few
// instructions with no frame.
[[gnu::noinline]] void ForgetModelsInBlock(char* block) {
  World& world = *current_world;
  const void* first = world.FirstModelAtOrAbove(block);
  if (first == nullptr) return;
  char* const end = block + malloc_usable_size(block);
  if (first < end) world.ForgetModelsIn(block, end);
}

}  // namespace

extern "C" {

__attribute__((weak)) void free(void* pointer) noexcept {
  if (pointer != nullptr && InWorld()) [[unlikely]] ForgetModelsInBlock(static_cast<char*>(pointer));
  const FreeFunction function = real_free.load(std::memory_order_acquire);
  if (function == nullptr) [[unlikely]] return FreeBeforeResolved(pointer);
  function(pointer);
}

// A block that moves ends every object in it; one that shrinks in place,
// those beyond the new size. A failed realloc leaves the block as it was.
__attribute__((weak)) void* realloc(void* pointer, std::size_t size) noexcept {
  if (pointer == nullptr || !InWorld()) return real_realloc(pointer, size);
  World& world = *current_world;
  auto* block = static_cast<char*>(pointer);
  // The block's size before realloc changes it; only when a model may be in it.
  const void* first = world.FirstModelAtOrAbove(block);
  const std::size_t old_size = first != nullptr ? malloc_usable_size(block) : 0;
  void* moved = real_realloc(pointer, size);
  if (first == nullptr || first >= block + old_size || (moved == nullptr && size != 0)) return moved;
  // The models only: their objects' bytes are not read here.
  world.ForgetModelsIn(moved == pointer ? block + size : block, block + old_size);
  return moved;
}

__attribute__((weak)) int munmap(void* address, std::size_t length) noexcept {
  if (InWorld()) current_world->ForgetModelsIn(address, static_cast<char*>(address) + length);
  return real_munmap(address, length);
}

}  // extern "C"
