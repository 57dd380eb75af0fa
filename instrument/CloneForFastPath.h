//===- CloneForFastPath.h - uninstrumented twin of a function body --------===//
//
// A guard before every access costs a load, a compare and a branch (and
// spills around the guarded call) in every hot loop: outside a world a
// memory-bound loop ran 1.8x slower. So an instrumented function keeps an
// untouched twin of its body and picks one of the two once, at entry.
// Which accesses get hooks is decided elsewhere (SimPass.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SIMTHREAD_INSTRUMENT_CLONEFORFASTPATH_H
#define SIMTHREAD_INSTRUMENT_CLONEFORFASTPATH_H

namespace llvm {
class Function;
class GlobalVariable;
class MDNode;
} // namespace llvm

namespace sim {

/// Gives F a copy of its body and a new entry block:
///
///   sim.dispatch:  <F's static allocas, shared by both bodies>
///                  br (__sim_world_active != 0), <F's body>, <the copy>
///
/// F's original blocks and instructions stay where they are, so the caller
/// can go on to instrument them; the copy (blocks suffixed ".native") is the
/// uninstrumented fast path. UnlikelyWeights marks the world side unlikely.
///
/// Returns false and leaves F unchanged when a copy could change what F
/// does: see canHaveTwin() in the .cpp for the cases.
bool cloneForFastPath(llvm::Function &F, llvm::GlobalVariable &WorldActive,
                      llvm::MDNode *UnlikelyWeights);

} // namespace sim

#endif // SIMTHREAD_INSTRUMENT_CLONEFORFASTPATH_H
