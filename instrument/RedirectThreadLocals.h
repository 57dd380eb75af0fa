//===- RedirectThreadLocals.h - the running simulated thread's TLS --------===//
//
// Under tls_switch=lazy the runtime leaves the FS base on one thread control
// block while simulated threads run (docs/design.md, "Per-thread state"), so
// the thread pointer no longer leads to the running simulated thread's copy
// of a thread_local. These transformations make every thread_local address
// in an instrumented module lead there anyway, and tell the runtime which
// thread_locals the module defines. Where the copies live, and when they
// move, is the runtime's business (include/sim/sim_interface.h).
//
//===----------------------------------------------------------------------===//

#ifndef SIMTHREAD_INSTRUMENT_REDIRECTTHREADLOCALS_H
#define SIMTHREAD_INSTRUMENT_REDIRECTTHREADLOCALS_H

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace sim {

/// Rewrites each address of a thread_local in M's functions (a call of
/// llvm.threadlocal.address, the global used directly as an operand, or a
/// constant expression on it) into the running simulated thread's copy:
///
///   %a = llvm.threadlocal.address(@G)
///   %sim.tls_address = %a + __sim_tls_delta     G defined here, dso_local,
///                                               in an executable
///   %sim.tls_address = __sim_tls_address(%a)    any other G
///
/// Meant to run once, after every function is instrumented: the
/// uninstrumented twins need it too, and deciding which accesses get hooks
/// relies on seeing llvm.threadlocal.address. Functions and thread_locals
/// named __sim_* are the runtime's and stay as they are.
void redirectThreadLocals(llvm::Module &M);

/// Adds a constructor, `sim.register_thread_locals`, that passes
/// __sim_register_thread_local the calling thread's own (not redirected)
/// copy and the size of every thread_local M defines. Run it after
/// redirectThreadLocals(), which must not rewrite those addresses.
void registerThreadLocals(llvm::Module &M);

/// Whether Call returns a thread_local's address that redirectThreadLocals()
/// computed through the runtime (a call of __sim_tls_address).
bool isRedirectedThreadLocalAddress(const llvm::CallBase &Call);

} // namespace sim

#endif // SIMTHREAD_INSTRUMENT_REDIRECTTHREADLOCALS_H
