// runtime_heap.h: the runtime's own memory, apart from the program's heap.
//
// A program's bug that reads or frees memory after a free fails or not
// depending on what malloc did in between: whether the block went back to
// the program (a reused chunk holds valid data) and whether glibc still has
// it in a bin (a double free is caught or not). When the runtime allocated
// from the same heap, its bookkeeping was "in between": a candidate that
// keeps every decision, or a told rerun that keeps every event, allocates
// otherwise than the seed's own run, so the same schedule failed in one
// process and passed in the next, and shrinking or a bounded search came
// back empty-handed. Here every `new` the runtime's archives make (their
// references to operator new and delete are renamed at build time,
// runtime/link/use_runtime_heap.sh) comes from a reservation of its own, so
// the program's heap sees only the program's allocations, in schedule order.
//
// free and realloc (interceptors/memory.cpp) hand a block of this heap
// back here, whoever frees it (a report the runtime built and a test
// destroys). A program that links its own allocator statically keeps its
// free, which would not know these blocks: then this heap stays off and the
// runtime allocates with the program's malloc, as before.
#ifndef SIM_RUNTIME_CORE_RUNTIME_HEAP_H_
#define SIM_RUNTIME_CORE_RUNTIME_HEAP_H_

#include <cstddef>
#include <cstdint>

namespace sim::internal {

// The reservation's size: far more than the runtime holds at once (its
// records are bounded), little against a 47-bit address space.
inline constexpr std::uintptr_t kRuntimeHeapBytes = std::uintptr_t{16} << 30;

// The reservation's first byte; until it is made, a base no user address
// reaches, so that InRuntimeHeap needs one load and no "is it made" test
// (free asks it for every block the program frees).
inline std::uintptr_t runtime_heap_base = ~std::uintptr_t{0} - kRuntimeHeapBytes + 1;

inline bool InRuntimeHeap(const void* block) {
  return reinterpret_cast<std::uintptr_t>(block) - runtime_heap_base < kRuntimeHeapBytes;
}

// Whether the runtime allocates from its own heap (decided at its first
// allocation): then a crash inside libc's heap leaves the runtime's intact.
bool RuntimeHeapIsOn();

// Precondition: InRuntimeHeap(block).
void RuntimeHeapFree(void* block);
void* RuntimeHeapReallocate(void* block, std::size_t size);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_RUNTIME_HEAP_H_
