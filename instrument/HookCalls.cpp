//===- HookCalls.cpp - hooks around calls that may leave instrumented code
//-===//
//
// See HookCalls.h.
//
//===----------------------------------------------------------------------===//

#include "HookCalls.h"

#include "GuardedCall.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

static cl::opt<bool>
    ClHookCalls("sim-hook-calls", cl::init(true),
                cl::desc("Hook calls that may leave instrumented code, for "
                         "the race detector"),
                cl::Hidden);

namespace sim {

static bool mayCallUninstrumentedCode(const CallBase &Call) {
  if (Call.isInlineAsm())
    return true;
  // Nothing can run after a musttail call in this frame, and setjmp's
  // second return would skip the end hook's bookkeeping.
  if (isa<IntrinsicInst>(Call) || Call.isMustTailCall() ||
      Call.hasFnAttr(Attribute::ReturnsTwice))
    return false;
  const Function *Callee = Call.getCalledFunction();
  if (Callee == nullptr)
    return true; // through a pointer: anywhere
  // Defined in this module: instrumented. The hooks are the runtime's.
  return Callee->isDeclaration() && !Callee->isIntrinsic() &&
         !Callee->getName().starts_with("__sim_");
}

// The callee, and the first two pointers it is given (null where there are
// fewer): the objects uninstrumented code is likeliest to synchronise on
// (a lock's `this`, the location an exchange writes).
static SmallVector<Value *, 3> hookArguments(CallBase &Call) {
  auto *Null =
      ConstantPointerNull::get(PointerType::getUnqual(Call.getContext()));
  SmallVector<Value *, 3> Args = {Call.isInlineAsm() ? Null
                                                     : Call.getCalledOperand()};
  for (Value *Arg : Call.args())
    if (Args.size() < 3 && Arg->getType()->isPointerTy() &&
        Arg->getType()->getPointerAddressSpace() == 0)
      Args.push_back(Arg);
  while (Args.size() < 3)
    Args.push_back(Null);
  return Args;
}

SmallVector<CallBase *, 8> callsToHook(Function &F) {
  SmallVector<CallBase *, 8> Calls;
  if (!ClHookCalls)
    return Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && mayCallUninstrumentedCode(*Call))
        Calls.push_back(Call);
  return Calls;
}

namespace {
// What every hook needs of the module: declarations, so each module refers
// to the runtime's one definition.
struct CallHooks {
  explicit CallHooks(Module &M) {
    IRBuilder<> IRB(M.getContext());
    Type *PtrTy = IRB.getPtrTy();
    Begin = M.getOrInsertFunction("__sim_call_begin", IRB.getVoidTy(), PtrTy,
                                  PtrTy, PtrTy);
    End = M.getOrInsertFunction("__sim_call_end", IRB.getVoidTy(), PtrTy, PtrTy,
                                PtrTy);
    RacesActive = cast<GlobalVariable>(
        M.getOrInsertGlobal("__sim_races_active", IRB.getInt8Ty()));
    Unlikely = MDBuilder(M.getContext()).createUnlikelyBranchWeights();
  }
  FunctionCallee Begin, End;
  GlobalVariable *RacesActive;
  MDNode *Unlikely;
};
} // namespace

static void hookCall(const CallHooks &Hooks, CallBase &Call) {
  SmallVector<Value *, 3> Args = hookArguments(Call);
  Instruction *AfterCall;
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call)) {
    BasicBlock *Normal = Invoke->getNormalDest();
    if (Normal->getSinglePredecessor() != Invoke->getParent())
      Normal = SplitEdge(Invoke->getParent(), Normal);
    AfterCall = &*Normal->getFirstInsertionPt();
  } else if (isa<CallBrInst>(Call)) {
    return; // asm goto: its successors are many; left unhooked
  } else {
    AfterCall = Call.getNextNode();
  }
  insertGuardedCall(*AfterCall, *Hooks.RacesActive, Hooks.End, Args,
                    Hooks.Unlikely);
  insertGuardedCall(Call, *Hooks.RacesActive, Hooks.Begin, Args,
                    Hooks.Unlikely);
}

void hookCalls(ArrayRef<CallBase *> Calls) {
  if (Calls.empty())
    return;
  const CallHooks Hooks(*Calls.front()->getModule());
  for (CallBase *Call : Calls)
    hookCall(Hooks, *Call);
}

} // namespace sim
