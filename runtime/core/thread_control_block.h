// thread_control_block.h: borrowed glibc thread control blocks (TCBs).
//
// Every simulated thread owns a real glibc TCB, borrowed from a "donor"
// pthread that ended as it started, leaving its TCB behind. Under the eager
// tls_switch modes every fiber switch points the FS base at the next
// thread's TCB, so all thread-local state (errno, the C++ exception globals,
// thread_local variables in any module, pthread keys, dlerror,
// pthread_self) is per simulated thread, as with real threads, in
// instrumented and uninstrumented code alike; thread_local_switch.h has the
// lazy mode, which reaches the same state without moving the FS base.
// DESIGN.md, "borrowed thread control blocks", has the measurements behind
// this choice.
//
// invariant: a donor never touches its own TCB while it is lent: it blocks
// every signal and ends by a raw exit syscall (no errno, no TLS) before its
// TCB is first lent.
// invariant: code that changes the FS base touches no thread-local storage.
#ifndef SIM_RUNTIME_THREAD_CONTROL_BLOCK_H_
#define SIM_RUNTIME_THREAD_CONTROL_BLOCK_H_

#include <cstddef>

namespace sim::internal {

// The value of the thread pointer (%fs:0 on x86-64): glibc's `struct pthread*`,
// which is also the `pthread_t` of the thread that owns the TCB.
using ThreadPointer = void*;

ThreadPointer CurrentThreadPointer();

// True when the CPU and kernel allow wrfsbase (AT_HWCAP2 has FSGSBASE).
extern const bool can_write_fs_base;
void SetThreadPointerBySyscall(ThreadPointer tcb);

// Points the FS base at `tcb`: wrfsbase where allowed, arch_prctl(ARCH_SET_FS)
// otherwise (thread_local_switch.h's InstallThreadPointer is the switch's,
// which follows the tls_switch option instead).
inline void SetThreadPointer(ThreadPointer tcb) {
  if (can_write_fs_base) {
    asm volatile("wrfsbase %0" ::"r"(tcb) : "memory");
  } else {
    SetThreadPointerBySyscall(tcb);
  }
}

// Lends a TCB whose static TLS blocks hold their initial images (as in a new
// thread) for every module except libc's and the dynamic loader's, and whose
// simulated-thread marker is set. Creates a donor when the pool is empty.
// Precondition: called on the OS thread that runs worlds.
ThreadPointer BorrowThreadControlBlock();

// Returns a TCB lent by BorrowThreadControlBlock.
void ReturnThreadControlBlock(ThreadPointer tcb);

// Creates donors until there are `count`, for BorrowThreadControlBlock to
// lend. A whole program's fork server does this before it forks, so that
// its children lend TCBs without creating a thread each (a thread's start
// and the multi-threaded exit cost 0.2 ms each on a 2-core VM); a spawned
// process does the same at the same point, so that both have the same heap
// and mappings (each donor callocs its dtv and maps its stack).
void CreateDonorsAhead(std::size_t count);

// In a child just forked: the parent's donors are not threads here, and
// glibc has put their stacks and TCBs in its cache for the child's next
// pthread_create, so none may be lent. The child makes its own.
void ForgetInheritedDonors();

// invariant: false in every real thread's TLS, true in a lent TCB's.
// Initial-exec: the runtime is always in the executable's static TLS (which
// MarkerIn relies on too), and under -fPIC the default general-dynamic model
// makes every instrumented access call __tls_get_addr until the linker
// relaxes it, after the compiler has saved registers around that call.
extern constinit thread_local bool simulated_thread_marker __attribute__((tls_model("initial-exec")));

// True on a TCB lent to a simulated thread: how interceptors tell a simulated
// thread from a real OS thread that calls them while a world runs. Inline:
// every instrumented access inside a world asks.
inline bool OnSimulatedThread() { return simulated_thread_marker; }

// Marks (or unmarks) the calling thread's own TCB as simulated: whole-program
// mode runs main as T0 on the main thread's TCB for the whole world.
void SetSimulatedThreadMarker(bool simulated);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_THREAD_CONTROL_BLOCK_H_
