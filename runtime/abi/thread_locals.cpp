// thread_locals.cpp: the pass's calls for thread-locals (sim_interface.h),
// which tls_switch=lazy needs (core/thread_local_switch.h).
#include <cstddef>

#include "core/thread_control_block.h"
#include "core/thread_local_census.h"
#include "core/thread_local_switch.h"
#include "sim/sim_interface.h"

using namespace sim::internal;

extern "C" {

void* __sim_tls_address(void* address) {
  const long delta = __sim_tls_delta;
  if (delta == 0) [[likely]]
    return address;
  const std::ptrdiff_t below = static_cast<char*>(CurrentThreadPointer()) - static_cast<char*>(address);
  // A block dlopen allocated inside this world has no fixed distance from
  // the running thread's pointer: it stays shared until the next world,
  // which the census puts in an eager mode.
  if (below <= 0 || below > lazy_layout.static_reach) return address;
  // libc's and libstdc++'s thread-locals stay on the installed block, where
  // uninstrumented code reaches them and their words are carried.
  for (std::size_t i = 0; i < lazy_layout.pinned_count; ++i) {
    if (lazy_layout.pinned[i].Holds(below)) return address;
  }
  return static_cast<char*>(address) + delta;
}

void __sim_register_thread_local(const void* address, unsigned long size) { RegisterThreadLocal(address, size); }

}  // extern "C"
