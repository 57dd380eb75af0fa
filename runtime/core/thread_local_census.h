// thread_local_census.h: which thread-locals the loaded modules have, and
// whether tls_switch=lazy can give every simulated thread its own.
//
// Lazy mode (thread_local_switch.h) leaves the FS base on one thread control
// block, so each thread-local is in one of three cases:
//  - built with the pass: registered by the module's constructor, and every
//    access moved to the running thread's own block (__sim_tls_delta);
//  - libc's and libstdc++'s: the few words that hold per-thread meaning
//    (errno, h_errno, the dlerror result, the C++ exception globals,
//    call_once's callable) are carried across each switch by hand;
//  - anything else (a prebuilt library, a file compiled without
//    sim-clang++, a module loaded with dlopen after start-up): lazy mode
//    cannot reach it, so it is not exact and auto chooses an eager mode.
#ifndef SIM_RUNTIME_CORE_THREAD_LOCAL_CENSUS_H_
#define SIM_RUNTIME_CORE_THREAD_LOCAL_CENSUS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sim::internal {

// A word carried across switches in lazy mode, at a fixed distance below the
// thread pointer (x86-64 TLS variant II: the same in every thread).
struct CarriedWord {
  std::ptrdiff_t below_thread_pointer;
  std::uint8_t size;  // 4 or 8
};

// The blocks whose thread-locals stay where the thread pointer puts them:
// the addresses __sim_tls_address must not move.
struct PinnedBlock {
  std::ptrdiff_t lowest_below;   // distance below the thread pointer of its first byte
  std::ptrdiff_t highest_below;  // ... and one past its last (smaller)
  bool Holds(std::ptrdiff_t below) const { return below <= lowest_below && below > highest_below; }
};

struct ThreadLocalCensus {
  bool lazy_is_exact = false;
  std::string why_lazy_is_not_exact;  // the first module in the way, and the fix
  std::vector<CarriedWord> carried;
  std::vector<PinnedBlock> pinned;
  // How far below the thread pointer the static TLS blocks reach: an address
  // further down (or above it) is in a block dlopen allocated, at no fixed
  // distance from the thread pointer, which lazy mode cannot move.
  std::ptrdiff_t static_reach = 0;
};

// The census of the modules loaded now, recounted only when a module was
// loaded or a thread-local registered since the last one.
const ThreadLocalCensus& CurrentThreadLocalCensus();

// __sim_register_thread_local's work: records a thread-local built with the
// pass, by its distance below the calling thread's thread pointer.
void RegisterThreadLocal(const void* address, std::size_t size);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_THREAD_LOCAL_CENSUS_H_
