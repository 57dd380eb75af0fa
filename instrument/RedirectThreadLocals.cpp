//===- RedirectThreadLocals.cpp - the running simulated thread's TLS ------===//
//
// See RedirectThreadLocals.h. Every thread_local address is first brought to
// one form, a call of llvm.threadlocal.address (what clang emits for each
// access anyway), and then redirected right after that call.
//
// Adding __sim_tls_delta is right only for a thread_local at a fixed offset
// from every thread pointer, i.e. in the executable's static TLS block, and
// only if the runtime moves it with the rest of a simulated thread's
// registered thread_locals: one this module defines (and registers) and that
// no other definition can preempt. Everything else (a thread_local of another
// object file, of a shared library, of libc) goes through __sim_tls_address,
// which can tell them apart at run time.
//
//===----------------------------------------------------------------------===//

#include "RedirectThreadLocals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <utility>

using namespace llvm;

#define DEBUG_TYPE "sim"

STATISTIC(NumRedirectedByDelta,
          "Number of thread-local addresses redirected by __sim_tls_delta");
STATISTIC(NumRedirectedByCall,
          "Number of thread-local addresses redirected by __sim_tls_address");
STATISTIC(NumRegisteredThreadLocals,
          "Number of thread-locals registered by the module constructor");

namespace sim {
namespace {

constexpr StringLiteral RuntimePrefix = "__sim_";
constexpr StringLiteral TlsDeltaName = "__sim_tls_delta";
constexpr StringLiteral TlsAddressName = "__sim_tls_address";
constexpr StringLiteral RegisterThreadLocalName = "__sim_register_thread_local";
constexpr StringLiteral RegistrationCtorName = "sim.register_thread_locals";

bool isRuntimeFunction(const Function &F) {
  return F.getName().starts_with(RuntimePrefix);
}

bool isThreadLocalAddressCall(const User &U) {
  const auto *Intrinsic = dyn_cast<IntrinsicInst>(&U);
  return Intrinsic &&
         Intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address;
}

// The runtime's own thread_locals are left alone: __sim_tls_delta is what a
// redirection reads, and the others belong to the OS thread. Other address
// spaces are not what the generic pointers of the ABI point to.
bool isRedirectable(const GlobalValue &GV) {
  if (!GV.isThreadLocal() || GV.getAddressSpace() != 0)
    return false;
  // An alias is redirected as the variable it names, if it names one.
  const auto *Variable =
      dyn_cast_or_null<GlobalVariable>(GV.getAliaseeObject());
  return Variable && !Variable->getName().starts_with(RuntimePrefix);
}

// Whether M ends up in an executable, whose thread_locals sit in the static
// TLS block at fixed offsets from the thread pointer. A shared library's
// block may be allocated on first use (dlopen, or the DTV's lazy path).
bool buildsExecutable(const Module &M) {
  return M.getPICLevel() == PICLevel::NotPIC ||
         M.getPIELevel() != PIELevel::Default;
}

// Whether GV is a thread_local this module defines, which
// registerThreadLocals() passes to the runtime. An available_externally one
// is only a copy of a definition elsewhere.
bool isRegistered(const GlobalVariable &GV) {
  return GV.isThreadLocal() && !GV.isDeclaration() &&
         !GV.hasAvailableExternallyLinkage() && GV.getAddressSpace() == 0 &&
         !GV.getName().starts_with(RuntimePrefix);
}

/// Turns the constant expressions on ThreadLocals that instructions use (a
/// GEP into a thread_local array, say) into instructions: a constant cannot
/// take an instruction's result as an operand, an instruction can, and its
/// use of the thread_local is then a direct one. Constants in initializers
/// are left: a thread_local's initializer may name another thread_local, and
/// no other global's may.
void expandConstantUsers(ArrayRef<GlobalValue *> ThreadLocals) {
  SmallVector<Constant *, 16> Constants(ThreadLocals.begin(),
                                        ThreadLocals.end());
  // convertUsersOfConstantsToInstructions() expands a constant once per use,
  // but a phi that two edges enter from one block (two cases of a switch)
  // must get one value from that block; the phis are fixed up afterwards.
  SmallSetVector<PHINode *, 8> Phis;
  SmallPtrSet<Constant *, 32> Visited;
  SmallVector<Constant *, 32> Worklist(Constants.begin(), Constants.end());
  while (!Worklist.empty()) {
    Constant *C = Worklist.pop_back_val();
    for (User *U : C->users()) {
      if (auto *Phi = dyn_cast<PHINode>(U); Phi && !isa<GlobalValue>(C))
        Phis.insert(Phi);
      else if (auto *Nested = dyn_cast<Constant>(U);
               Nested && !isa<GlobalValue>(Nested) &&
               Visited.insert(Nested).second)
        Worklist.push_back(Nested);
    }
  }

  convertUsersOfConstantsToInstructions(Constants);

  for (PHINode *Phi : Phis) {
    SmallDenseMap<BasicBlock *, Value *, 4> ValueFromBlock;
    for (unsigned Index = 0; Index < Phi->getNumIncomingValues(); ++Index) {
      Value *Incoming = Phi->getIncomingValue(Index);
      auto [It, Inserted] =
          ValueFromBlock.try_emplace(Phi->getIncomingBlock(Index), Incoming);
      if (Inserted || It->second == Incoming)
        continue;
      // Both were expanded from the same constant.
      Phi->setIncomingValue(Index, It->second);
      RecursivelyDeleteTriviallyDeadInstructions(Incoming);
    }
  }
}

/// Turns every instruction operand that names ThreadLocal directly into a
/// call of llvm.threadlocal.address, so that redirect() sees one form.
void addressDirectUsesThroughIntrinsic(GlobalValue &ThreadLocal) {
  SmallVector<Use *, 16> DirectUses;
  for (Use &U : ThreadLocal.uses())
    if (auto *I = dyn_cast<Instruction>(U.getUser());
        I && !isThreadLocalAddressCall(*I) &&
        !isRuntimeFunction(*I->getFunction()))
      DirectUses.push_back(&U);

  // A phi lists an incoming block once per edge, and the entries of one
  // block must agree: one address per phi and incoming block.
  DenseMap<std::pair<PHINode *, BasicBlock *>, Value *> PhiAddresses;
  for (Use *U : DirectUses) {
    auto *User = cast<Instruction>(U->getUser());
    Instruction *InsertBefore = User;
    auto *Phi = dyn_cast<PHINode>(User);
    BasicBlock *Incoming = nullptr;
    if (Phi) {
      Incoming = Phi->getIncomingBlock(*U);
      if (Value *Address = PhiAddresses.lookup({Phi, Incoming})) {
        U->set(Address);
        continue;
      }
      // The value has to be ready when control leaves the incoming block.
      InsertBefore = Incoming->getTerminator();
    }
    IRBuilder<> IRB(InsertBefore);
    Value *Address = IRB.CreateThreadLocalAddress(&ThreadLocal);
    Address->setName("sim.thread_local");
    U->set(Address);
    if (Phi)
      PhiAddresses[{Phi, Incoming}] = Address;
  }
}

/// Replaces the uses of each llvm.threadlocal.address result with the
/// running simulated thread's copy.
class Redirector {
public:
  explicit Redirector(Module &M)
      : M(M), InExecutable(buildsExecutable(M)),
        PtrTy(PointerType::getUnqual(M.getContext())),
        Int64Ty(Type::getInt64Ty(M.getContext())) {}
  void redirect(IntrinsicInst &Address);

private:
  bool canRedirectByDelta(const GlobalValue &ThreadLocal) const;
  GlobalVariable *tlsDelta();

  Module &M;
  bool InExecutable;
  Type *PtrTy;
  Type *Int64Ty;
  GlobalVariable *TlsDelta = nullptr;
};

bool Redirector::canRedirectByDelta(const GlobalValue &ThreadLocal) const {
  // dso_local: no definition in another module can take the place of the
  // one this module registers. For an alias, the alias is the symbol the
  // access names.
  const auto *Variable = cast<GlobalVariable>(ThreadLocal.getAliaseeObject());
  return InExecutable && ThreadLocal.isDSOLocal() && isRegistered(*Variable);
}

GlobalVariable *Redirector::tlsDelta() {
  if (TlsDelta)
    return TlsDelta;
  TlsDelta = M.getGlobalVariable(TlsDeltaName);
  // Declared as the header does: initial-exec, so reading it is one load at
  // a fixed offset from the thread pointer, never a call.
  if (!TlsDelta)
    TlsDelta = new GlobalVariable(
        M, Int64Ty, /*isConstant=*/false, GlobalValue::ExternalLinkage,
        /*Initializer=*/nullptr, TlsDeltaName,
        /*InsertBefore=*/nullptr, GlobalValue::InitialExecTLSModel);
  return TlsDelta;
}

void Redirector::redirect(IntrinsicInst &Address) {
  auto *ThreadLocal = cast<GlobalValue>(Address.getArgOperand(0));
  IRBuilder<> IRB(Address.getParent(), std::next(Address.getIterator()));
  IRB.SetCurrentDebugLocation(Address.getDebugLoc());
  Instruction *Redirected;
  if (canRedirectByDelta(*ThreadLocal)) {
    ++NumRedirectedByDelta;
    // Not inbounds: the running thread's copy is outside the object the
    // thread pointer leads to.
    Value *DeltaAddress = IRB.CreateThreadLocalAddress(tlsDelta());
    DeltaAddress->setName("sim.tls_delta_address");
    Value *Delta = IRB.CreateLoad(Int64Ty, DeltaAddress, "sim.tls_delta");
    Redirected = cast<Instruction>(
        IRB.CreateGEP(IRB.getInt8Ty(), &Address, Delta, "sim.tls_address"));
  } else {
    ++NumRedirectedByCall;
    FunctionCallee TlsAddress =
        M.getOrInsertFunction(TlsAddressName, PtrTy, PtrTy);
    Redirected = IRB.CreateCall(TlsAddress, {&Address}, "sim.tls_address");
  }
  Address.replaceUsesWithIf(
      Redirected, [Redirected](Use &U) { return U.getUser() != Redirected; });
}

} // namespace

void redirectThreadLocals(Module &M) {
  SmallVector<GlobalValue *, 16> ThreadLocals;
  for (GlobalVariable &GV : M.globals())
    if (isRedirectable(GV))
      ThreadLocals.push_back(&GV);
  for (GlobalAlias &GA : M.aliases())
    if (isRedirectable(GA))
      ThreadLocals.push_back(&GA);
  if (ThreadLocals.empty())
    return;

  expandConstantUsers(ThreadLocals);

  SmallVector<IntrinsicInst *, 32> Addresses;
  for (GlobalValue *ThreadLocal : ThreadLocals) {
    addressDirectUsesThroughIntrinsic(*ThreadLocal);
    for (User *U : ThreadLocal->users())
      if (isThreadLocalAddressCall(*U) &&
          !isRuntimeFunction(*cast<Instruction>(U)->getFunction()))
        Addresses.push_back(cast<IntrinsicInst>(U));
  }

  Redirector Redirect(M);
  for (IntrinsicInst *Address : Addresses)
    Redirect.redirect(*Address);
}

void registerThreadLocals(Module &M) {
  SmallVector<GlobalVariable *, 16> Defined;
  for (GlobalVariable &GV : M.globals())
    if (isRegistered(GV))
      Defined.push_back(&GV);
  if (Defined.empty())
    return;

  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  IRBuilder<> IRB(Ctx);
  FunctionCallee Register =
      M.getOrInsertFunction(RegisterThreadLocalName, IRB.getVoidTy(),
                            IRB.getPtrTy(), IRB.getInt64Ty());
  Function *Ctor = Function::createWithDefaultAttr(
      FunctionType::get(IRB.getVoidTy(), /*isVarArg=*/false),
      GlobalValue::InternalLinkage, DL.getProgramAddressSpace(),
      RegistrationCtorName, &M);
  IRB.SetInsertPoint(BasicBlock::Create(Ctx, "", Ctor));
  for (GlobalVariable *GV : Defined) {
    ++NumRegisteredThreadLocals;
    uint64_t Size = DL.getTypeAllocSize(GV->getValueType()).getFixedValue();
    IRB.CreateCall(Register,
                   {IRB.CreateThreadLocalAddress(GV), IRB.getInt64(Size)});
  }
  IRB.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, /*Priority=*/65535);
}

bool isRedirectedThreadLocalAddress(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && Callee->getName() == TlsAddressName;
}

} // namespace sim
