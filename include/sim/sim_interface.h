// sim_interface.h: the ABI between code instrumented by the simthread pass and
// the runtime (libsimrt).
//
// This is the only contract between instrument/ and runtime/. It must NOT
// include any other header: the pass emits calls to these symbols by name, and
// the runtime defines them. Every symbol is extern "C" and starts with __sim_.
//
// Every hook is a scheduling point that runs *before* the access it describes;
// the access itself then runs natively. A world runs all simulated threads on
// one OS thread, so a native access between two scheduling points is atomic
// with respect to every other simulated thread.
//
// The pass guards each call with an inline fast path:
//     if (__sim_world_active) __sim_read4(addr, &site);
// so an instrumented binary outside a world pays one load and one predictable
// branch per access.
#ifndef SIM_SIM_INTERFACE_H_
#define SIM_SIM_INTERFACE_H_

#ifdef __cplusplus
extern "C" {
#endif

// A static source location, emitted once per instrumented instruction by the
// pass (or by SIM_GATE), so reports need no symbolizer.
// invariant: every field outlives the process (string literals / constants).
struct __sim_site {
  const char* file;      // as the compiler saw it (may be relative)
  const char* function;  // demangled when the pass could, else mangled
  unsigned line;
  unsigned column;
  // FNV-1a 64 of "basename(file):line", computed by whoever emits the site.
  // The trace hash uses it, so it never depends on load addresses.
  unsigned long long hash;
  // Nonzero on a plain read that a plain write of the same address and size
  // follows in its basic block, with no call, atomic or fence between: the
  // race detector checks the write alone, as ThreadSanitizer does, since
  // whatever races with the read races with the write. Still a scheduling
  // point.
  unsigned read_then_written;
};

// Nonzero while the slow path has work: a world is running in this process,
// or a sim::Gate is held on real threads. Read by the inline fast path only;
// the hooks re-check whether the caller is a simulated thread.
extern unsigned char __sim_world_active;
// Nonzero while a world that detects data races (races=1) runs: the guard
// of the call hooks below.
extern unsigned char __sim_races_active;

// Plain loads and stores of 1, 2, 4, 8 and 16 bytes.
void __sim_read1(const volatile void* addr, const struct __sim_site* site);
void __sim_read2(const volatile void* addr, const struct __sim_site* site);
void __sim_read4(const volatile void* addr, const struct __sim_site* site);
void __sim_read8(const volatile void* addr, const struct __sim_site* site);
void __sim_read16(const volatile void* addr, const struct __sim_site* site);
void __sim_write1(const volatile void* addr, const struct __sim_site* site);
void __sim_write2(const volatile void* addr, const struct __sim_site* site);
void __sim_write4(const volatile void* addr, const struct __sim_site* site);
void __sim_write8(const volatile void* addr, const struct __sim_site* site);
void __sim_write16(const volatile void* addr, const struct __sim_site* site);

// Accesses of any other size, and memcpy/memmove (a read of src, a write of
// dst) and memset (a write).
void __sim_read_range(const volatile void* addr, unsigned long size, const struct __sim_site* site);
void __sim_write_range(const volatile void* addr, unsigned long size, const struct __sim_site* site);

// Atomic operations. `order` is the C ABI memory order (__ATOMIC_RELAXED = 0
// ... __ATOMIC_SEQ_CST = 5); for cmpxchg it is the success order. Worlds
// explore sequentially consistent interleavings only, so the order is
// recorded, not modelled.
#define SIM_DECLARE_ATOMIC_HOOKS(bits)                                                                  \
  void __sim_atomic##bits##_load(const volatile void* addr, int order, const struct __sim_site* site);  \
  void __sim_atomic##bits##_store(const volatile void* addr, int order, const struct __sim_site* site); \
  void __sim_atomic##bits##_rmw(const volatile void* addr, int order, const struct __sim_site* site);   \
  void __sim_atomic##bits##_cmpxchg(const volatile void* addr, int order, const struct __sim_site* site);
SIM_DECLARE_ATOMIC_HOOKS(8)
SIM_DECLARE_ATOMIC_HOOKS(16)
SIM_DECLARE_ATOMIC_HOOKS(32)
SIM_DECLARE_ATOMIC_HOOKS(64)
SIM_DECLARE_ATOMIC_HOOKS(128)
#undef SIM_DECLARE_ATOMIC_HOOKS

// A standalone fence (std::atomic_thread_fence).
void __sim_atomic_fence(int order, const struct __sim_site* site);

// Around a call (direct or indirect) to a function the module does not
// define, or to inline assembly (callee null), with the call's first two
// pointer arguments: the race detector takes a call into a library built
// without the pass as synchronisation it cannot see
// (runtime/core/race_checks.h).
void __sim_call_begin(const void* callee, const void* first, const void* second);
void __sim_call_end(const void* callee, const void* first, const void* second);

// A named gate: SIM_GATE("name") in source, or the entry of a function named
// by -fsim-gate=Qualified::name. Outside a world it returns at once.
void __sim_gate(const char* name, const struct __sim_site* site);

// Every module the pass instruments defines this as a weak constant 1, so the
// runtime (which references it weakly) can tell whether the executable was
// built with sim-clang++; SIM_TEST says so once when it was not.
extern const unsigned char __sim_instrumented;

// Thread-local storage. Under tls_switch=lazy (docs/design.md, "per-thread
// state") the FS base stays on one thread control block while simulated
// threads run, so the copy of an instrumented thread_local that belongs to
// the running simulated thread is the one the thread pointer gives plus
// __sim_tls_delta: the offset from the installed block to the running
// thread's own. It is 0 on every real thread, outside worlds, and under the
// eager modes. The pass rewrites each llvm.threadlocal.address of a
// thread_local this module defines into `address + __sim_tls_delta`, and
// every other one into a call of __sim_tls_address, which also knows the
// thread-locals of libc and libstdc++ (carried across switches, not moved).
extern __thread long __sim_tls_delta __attribute__((tls_model("initial-exec")));
void* __sim_tls_address(void* address);

// Called by each instrumented module's constructor for every thread_local
// it defines, with the calling thread's copy: how the runtime tells
// thread-locals built with the pass (which it can move) from ones that were
// not (which force a thread control block switch per context switch).
void __sim_register_thread_local(const void* address, unsigned long size);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // SIM_SIM_INTERFACE_H_
