//===- HookCalls.h - hooks around calls that may leave instrumented code --===//
//
// The race detector cannot see the synchronisation of a shared library
// built without the pass (a lock made of atomics inside abseil or oneTBB),
// so it takes a call into one as synchronisation (runtime/core/race_checks.h).
// Whether a callee is such a library's is only known at run time, from its
// address; the pass marks every call that may be: to a function the module
// only declares, through a pointer, or to inline assembly.
//
//===----------------------------------------------------------------------===//

#ifndef SIMTHREAD_INSTRUMENT_HOOKCALLS_H
#define SIMTHREAD_INSTRUMENT_HOOKCALLS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace sim {

/// F's calls that may run code the pass did not instrument (none with
/// -sim-hook-calls=false): collected before F gets its uninstrumented twin.
llvm::SmallVector<llvm::CallBase *, 8> callsToHook(llvm::Function &F);

/// Surrounds each of Calls with
///
///   if (__sim_races_active) __sim_call_begin(callee, p0, p1);
///   <call>
///   if (__sim_races_active) __sim_call_end(callee, p0, p1);  // normal path
///
/// where callee is null for inline assembly, and p0, p1 are the call's
/// first two pointer arguments (null where it has fewer).
/// An invoke's end hook goes on its normal edge; the unwind edge has none.
void hookCalls(llvm::ArrayRef<llvm::CallBase *> Calls);

} // namespace sim

#endif // SIMTHREAD_INSTRUMENT_HOOKCALLS_H
