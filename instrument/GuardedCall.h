//===- GuardedCall.h - a call to the runtime behind an inline flag test ---===//
//
// Every hook the pass inserts runs only while one of the runtime's flags
// is set (__sim_world_active for accesses and gates, __sim_races_active
// for the calls of HookCalls.h): a load, a compare and an unlikely branch
// around the call, so that code outside a world pays no call.
//
//===----------------------------------------------------------------------===//

#ifndef SIMTHREAD_INSTRUMENT_GUARDEDCALL_H
#define SIMTHREAD_INSTRUMENT_GUARDEDCALL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class GlobalVariable;
class Instruction;
class MDNode;
class Value;
} // namespace llvm

namespace sim {

/// Inserts, before Before:
///
///   %sim.<flag> = load i8, ptr @__sim_<flag>
///   %<CompareName> = icmp ne i8 %sim.<flag>, 0
///   br i1 %<CompareName>, label %then, label %rest, !prof UnlikelyWeights
///   then: call Hook(Args)   (with Before's debug location)
void insertGuardedCall(llvm::Instruction &Before, llvm::GlobalVariable &Flag,
                       llvm::FunctionCallee Hook,
                       llvm::ArrayRef<llvm::Value *> Args,
                       llvm::MDNode *UnlikelyWeights,
                       llvm::StringRef CompareName = "");

} // namespace sim

#endif // SIMTHREAD_INSTRUMENT_GUARDEDCALL_H
