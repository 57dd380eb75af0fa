//===- ReadBeforeWrite.cpp - reads whose race check a later write makes ---===//

#include "ReadBeforeWrite.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace sim {

/// Whether I may synchronise, or run code that does: any call but a debug
/// intrinsic, any atomic operation, a fence.
static bool maySynchronise(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return false;
  return isa<CallBase>(I) || I.isAtomic() || isa<FenceInst>(I);
}

SmallPtrSet<const Instruction *, 16>
readsThenWritten(Function &F, ArrayRef<Instruction *> Instrumented) {
  SmallPtrSet<const Instruction *, 16> Result;
  SmallPtrSet<const Instruction *, 32> Hooked(Instrumented.begin(),
                                              Instrumented.end());
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (BasicBlock &BB : F) {
    // The pointers a hooked plain store writes later in the block, with
    // the store's size, walking from the block's end.
    DenseMap<const Value *, uint64_t> WrittenLater;
    for (Instruction &I : reverse(BB)) {
      if (maySynchronise(I)) {
        WrittenLater.clear();
        continue;
      }
      if (!Hooked.contains(&I))
        continue;
      if (auto *Store = dyn_cast<StoreInst>(&I)) {
        TypeSize Size =
            DL.getTypeStoreSize(Store->getValueOperand()->getType());
        if (!Store->isVolatile() && !Size.isScalable())
          WrittenLater[Store->getPointerOperand()] = Size.getFixedValue();
      } else if (auto *Load = dyn_cast<LoadInst>(&I)) {
        TypeSize Size = DL.getTypeStoreSize(Load->getType());
        auto Written = WrittenLater.find(Load->getPointerOperand());
        if (!Load->isVolatile() && !Size.isScalable() &&
            Written != WrittenLater.end() &&
            Written->second == Size.getFixedValue())
          Result.insert(Load);
      }
    }
  }
  return Result;
}

} // namespace sim
