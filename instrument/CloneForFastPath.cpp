//===- CloneForFastPath.cpp - uninstrumented twin of a function body ------===//
//
// See CloneForFastPath.h. The dispatch reads the same flag as the per-access
// guards; the instrumented body keeps its guards, so a world that ends while
// a function is running never sees a hook from it.
//
//===----------------------------------------------------------------------===//

#include "CloneForFastPath.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace sim {

static bool canHaveTwin(const Function &F) {
  // A coroutine that is not yet split is one state machine keyed by its
  // coro.id; two copies of it would be two coroutines sharing one frame.
  if (F.isPresplitCoroutine())
    return false;
  // blockaddress constants name the original blocks, so an indirectbr in
  // the copy would jump back into the instrumented body (or, for the
  // verifier, to a block it does not list).
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return false;
  return true;
}

bool cloneForFastPath(Function &F, GlobalVariable &WorldActive,
                      MDNode *UnlikelyWeights) {
  if (!canHaveTwin(F))
    return false;

  BasicBlock &Body = F.getEntryBlock();
  // Allocas in the entry block are fixed frame slots; anywhere else they are
  // dynamic stack allocations. Both bodies share the entry's allocas, which
  // also keeps one debug variable per slot.
  SmallVector<AllocaInst *, 16> StaticAllocas;
  for (Instruction &I : Body)
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      StaticAllocas.push_back(AI);

  SmallVector<BasicBlock *, 32> OriginalBlocks;
  for (BasicBlock &BB : F)
    OriginalBlocks.push_back(&BB);

  LLVMContext &Ctx = F.getContext();
  BasicBlock *Dispatch = BasicBlock::Create(Ctx, "sim.dispatch", &F, &Body);
  for (AllocaInst *AI : StaticAllocas)
    AI->moveBefore(*Dispatch, Dispatch->end());

  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 32> TwinBlocks;
  for (BasicBlock *BB : OriginalBlocks) {
    BasicBlock *Twin = CloneBasicBlock(BB, VMap, ".native", &F);
    VMap[BB] = Twin;
    TwinBlocks.push_back(Twin);
  }
  // Values the copy does not map (arguments, the shared allocas) stay as
  // they are.
  remapInstructionsInBlocks(TwinBlocks, VMap);

  IRBuilder<> IRB(Dispatch);
  Value *Active =
      IRB.CreateLoad(IRB.getInt8Ty(), &WorldActive, "sim.world_active");
  Value *InWorld = IRB.CreateICmpNE(Active, IRB.getInt8(0), "sim.in_world");
  IRB.CreateCondBr(InWorld, &Body, cast<BasicBlock>(VMap[&Body]),
                   UnlikelyWeights);
  return true;
}

} // namespace sim
