//===- GuardedCall.cpp - a call to the runtime behind an inline flag test -===//
//
// See GuardedCall.h.
//
//===----------------------------------------------------------------------===//

#include "GuardedCall.h"

#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace sim {

void insertGuardedCall(Instruction &Before, GlobalVariable &Flag,
                       FunctionCallee Hook, ArrayRef<Value *> Args,
                       MDNode *UnlikelyWeights, StringRef CompareName) {
  IRBuilder<> IRB(&Before);
  // "__sim_world_active" loads into %sim.world_active.
  const std::string LoadName =
      "sim." + Flag.getName().drop_front(StringRef("__sim_").size()).str();
  Value *Active = IRB.CreateLoad(IRB.getInt8Ty(), &Flag, LoadName);
  Value *Set = IRB.CreateICmpNE(Active, IRB.getInt8(0), CompareName);
  Instruction *Then = SplitBlockAndInsertIfThen(
      Set, Before.getIterator(), /*Unreachable=*/false, UnlikelyWeights);
  IRBuilder<> ThenIRB(Then);
  ThenIRB.SetCurrentDebugLocation(Before.getDebugLoc());
  ThenIRB.CreateCall(Hook, Args);
}

} // namespace sim
