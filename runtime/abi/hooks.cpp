// hooks.cpp: the __sim_* ABI called by code the pass instrumented.
//
// Each hook is a scheduling point before the access; the access itself runs
// natively after the hook returns. Sites come from the pass, so the trace
// names file:line without a symbolizer.
#include "core/race_checks.h"
#include "core/world.h"
#include "sim/sim_interface.h"

using namespace sim::internal;

namespace {

// Instrumented code calls a hook only while __sim_world_active is set (it
// picks its instrumented twin at entry), so the simulated-thread marker alone
// says whether a world is running on this thread.
inline void Access(EventKind kind, const volatile void* address, unsigned size, const __sim_site* source) {
  if (!OnSimulatedThread()) return;
  current_world->AccessPoint(kind, const_cast<const void*>(address), size, source);
}

// An atomic operation's memory order is the race detector's (races=1),
// read when the thread goes on from the operation's point.
inline void AtomicAccess(EventKind kind, const volatile void* address, unsigned size, int order,
                         const __sim_site* source) {
  if (!OnSimulatedThread()) return;
  current_world->running().memory_order = order;
  current_world->AccessPoint(kind, const_cast<const void*>(address), size, source);
}

// A range's size may not fit `unsigned`; any size past a word is as wide as
// any other to the world (transition.h).
unsigned RangeSize(unsigned long size) { return size > 8 ? 9 : static_cast<unsigned>(size); }

}  // namespace

extern "C" {

#define SIM_DEFINE_ACCESS_HOOK(name, kind, size) \
  void name(const volatile void* address, const __sim_site* site) { Access(kind, address, size, site); }
SIM_DEFINE_ACCESS_HOOK(__sim_read1, EventKind::kRead, 1)
SIM_DEFINE_ACCESS_HOOK(__sim_read2, EventKind::kRead, 2)
SIM_DEFINE_ACCESS_HOOK(__sim_read4, EventKind::kRead, 4)
SIM_DEFINE_ACCESS_HOOK(__sim_read8, EventKind::kRead, 8)
SIM_DEFINE_ACCESS_HOOK(__sim_read16, EventKind::kRead, 16)
SIM_DEFINE_ACCESS_HOOK(__sim_write1, EventKind::kWrite, 1)
SIM_DEFINE_ACCESS_HOOK(__sim_write2, EventKind::kWrite, 2)
SIM_DEFINE_ACCESS_HOOK(__sim_write4, EventKind::kWrite, 4)
SIM_DEFINE_ACCESS_HOOK(__sim_write8, EventKind::kWrite, 8)
SIM_DEFINE_ACCESS_HOOK(__sim_write16, EventKind::kWrite, 16)
#undef SIM_DEFINE_ACCESS_HOOK

void __sim_read_range(const volatile void* address, unsigned long size, const __sim_site* site) {
  Access(EventKind::kRead, address, RangeSize(size), site);
}
void __sim_write_range(const volatile void* address, unsigned long size, const __sim_site* site) {
  Access(EventKind::kWrite, address, RangeSize(size), site);
}

// Sequentially consistent exploration: the order does not change what a
// load may read (README, known limits); it gives the race detector its
// happens-before edges.
#define SIM_DEFINE_ATOMIC_HOOKS(bits)                                                                  \
  void __sim_atomic##bits##_load(const volatile void* address, int order, const __sim_site* site) {    \
    AtomicAccess(EventKind::kAtomicLoad, address, (bits) / 8, order, site);                            \
  }                                                                                                    \
  void __sim_atomic##bits##_store(const volatile void* address, int order, const __sim_site* site) {   \
    AtomicAccess(EventKind::kAtomicStore, address, (bits) / 8, order, site);                           \
  }                                                                                                    \
  void __sim_atomic##bits##_rmw(const volatile void* address, int order, const __sim_site* site) {     \
    AtomicAccess(EventKind::kAtomicRmw, address, (bits) / 8, order, site);                             \
  }                                                                                                    \
  void __sim_atomic##bits##_cmpxchg(const volatile void* address, int order, const __sim_site* site) { \
    AtomicAccess(EventKind::kAtomicCompareExchange, address, (bits) / 8, order, site);                 \
  }
SIM_DEFINE_ATOMIC_HOOKS(8)
SIM_DEFINE_ATOMIC_HOOKS(16)
SIM_DEFINE_ATOMIC_HOOKS(32)
SIM_DEFINE_ATOMIC_HOOKS(64)
SIM_DEFINE_ATOMIC_HOOKS(128)
#undef SIM_DEFINE_ATOMIC_HOOKS

void __sim_call_begin(const void* callee, const void* first, const void* second) {
  if (OnSimulatedThread()) CallMayEnterForeignCode(*current_world, callee, {first, second});
}
void __sim_call_end(const void* callee, const void* first, const void* second) {
  if (OnSimulatedThread()) CallMayLeaveForeignCode(*current_world, callee, {first, second});
}

void __sim_atomic_fence(int order, const __sim_site* site) { AtomicAccess(EventKind::kFence, nullptr, 0, order, site); }

}  // extern "C"
