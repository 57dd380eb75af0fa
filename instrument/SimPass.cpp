//===- SimPass.cpp - simthread instrumentation pass -----------------------===//
//
// Makes every memory access another simulated thread could observe a
// scheduling point of simthread. Before each load, store, atomic operation,
// fence and memcpy/memmove/memset it inserts a call to the matching __sim_*
// hook of include/sim/sim_interface.h, guarded by an inline fast path:
//
//     if (__sim_world_active) __sim_read4(addr, &site);   // unlikely
//
// The access itself is left as it was: the hook only decides which simulated
// thread runs next, and runs before the access. Accesses no other thread can
// observe are skipped (see classifyAddress()). With -sim-gate=Name the entry
// of each function called Name also calls __sim_gate. Calls that may leave
// instrumented code get hooks for the race detector (HookCalls.h).
//
// The pass runs once per module, last in the optimizer pipeline (so -O0 and
// -O2 both get it, after inlining and vectorisation), and marks the module
// so a second run does nothing. Once every function is instrumented, each
// thread_local address is redirected to the running simulated thread's copy
// and the module registers the thread_locals it defines
// (RedirectThreadLocals.h). Threads, schedules and reports are the runtime's.
//
//===----------------------------------------------------------------------===//

#include "CloneForFastPath.h"
#include "GuardedCall.h"
#include "HookCalls.h"
#include "ReadBeforeWrite.h"
#include "RedirectThreadLocals.h"
#include "SiteTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/AtomicOrdering.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

#define DEBUG_TYPE "sim"

static cl::opt<bool> ClInstrumentMemoryAccesses(
    "sim-instrument-memory-accesses", cl::init(true),
    cl::desc("Make plain loads and stores scheduling points"), cl::Hidden);
static cl::opt<bool> ClInstrumentAtomics(
    "sim-instrument-atomics", cl::init(true),
    cl::desc("Make atomic operations and fences scheduling points"),
    cl::Hidden);
static cl::opt<bool> ClInstrumentMemIntrinsics(
    "sim-instrument-memintrinsics", cl::init(true),
    cl::desc("Make memcpy, memmove and memset scheduling points"), cl::Hidden);
static cl::list<std::string> ClGates(
    "sim-gate", cl::CommaSeparated,
    cl::desc("Qualified function names (Ns::Class::method, no parameters) "
             "whose entry calls __sim_gate"),
    cl::value_desc("Qualified::name"));
static cl::opt<bool> ClCloneForFastPath(
    "sim-clone-for-fast-path", cl::init(true),
    cl::desc("Keep an uninstrumented copy of each instrumented function and "
             "choose once at entry"),
    cl::Hidden);

STATISTIC(NumInstrumentedReads, "Number of instrumented reads");
STATISTIC(NumInstrumentedWrites, "Number of instrumented writes");
STATISTIC(NumInstrumentedAtomics, "Number of instrumented atomic operations");
STATISTIC(NumInstrumentedFences, "Number of instrumented fences");
STATISTIC(NumInstrumentedMemIntrinsics,
          "Number of instrumented memcpy/memmove/memset");
STATISTIC(NumGates, "Number of function entries made gates");
STATISTIC(NumFastPathTwins, "Number of functions given an uninstrumented twin");
STATISTIC(NumSkippedLocal, "Number of accesses skipped: non-captured alloca");
STATISTIC(NumSkippedConstant, "Number of reads skipped: constant global");
STATISTIC(NumSkippedVtable, "Number of reads skipped: vtable pointer");
STATISTIC(NumSkippedInvariant, "Number of reads skipped: !invariant.load");
STATISTIC(NumSkippedThreadLocal, "Number of accesses skipped: thread-local");
STATISTIC(NumSkippedAddressSpace,
          "Number of accesses skipped: non-default address space");
STATISTIC(NumSkippedSingleThreadFences,
          "Number of fences skipped: single-thread (signal) fence");

namespace {

constexpr StringLiteral InstrumentedFlag = "sim.instrumented";
constexpr StringLiteral HookPrefix = "__sim_";

// Why an access needs no hook. Each reason is one statistic and one test.
enum class SkipReason {
  None,
  LocalNotCaptured,
  ConstantGlobal,
  VtableLoad,
  InvariantLoad,
  ThreadLocal,
  NonDefaultAddressSpace,
};

// The ABI has hooks for accesses of 1, 2, 4, 8 and 16 bytes: size classes
// 0..4 (log2 of the size).
constexpr unsigned NumSizeClasses = 5;

// The size class of an access of Bytes bytes, or none when it needs the
// _range hook.
std::optional<unsigned> sizeClassOf(uint64_t Bytes) {
  if (!isPowerOf2_64(Bytes) || Bytes > 16)
    return std::nullopt;
  return Log2_64(Bytes);
}

/// The names -sim-gate can use for a function: its qualified name without
/// parameters, return type or cv-qualifiers ("Repository::fetch" for
/// "Repository::fetch(int) const"), with its template arguments
/// ("ns::twice<int>") and without ("ns::twice"). An unmangled (C) name is
/// its only name.
SmallVector<std::string, 2> gateNamesOf(const Function &F) {
  // The demangler points into this string until it is destroyed.
  std::string Mangled = F.getName().str();
  ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Mangled.c_str()) || !Demangler.isFunction())
    return {Mangled};

  auto Take = [](char *Buffer) {
    std::string Result = Buffer ? Buffer : "";
    std::free(Buffer);
    return Result;
  };
  size_t Size = 0;
  std::string WithTemplateArgs =
      Take(Demangler.getFunctionName(nullptr, &Size));
  std::string Context =
      Take(Demangler.getFunctionDeclContextName(nullptr, &Size));
  std::string Base = Take(Demangler.getFunctionBaseName(nullptr, &Size));
  std::string WithoutTemplateArgs =
      Context.empty() ? Base : Context + "::" + Base;
  if (WithoutTemplateArgs == WithTemplateArgs)
    return {WithTemplateArgs};
  return {WithTemplateArgs, WithoutTemplateArgs};
}

class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M);
  void instrumentFunction(Function &F);

private:
  SkipReason classifyAddress(const Instruction &I, Value *Addr, bool IsRead);
  bool shouldInstrument(Instruction &I);
  bool isCaptured(const AllocaInst &Alloca);

  void instrumentAccess(Instruction &I);
  void instrumentLoadOrStore(Instruction &I, Value *Addr, Type *AccessTy,
                             bool IsWrite);
  void instrumentAtomic(Instruction &I);
  void instrumentFence(FenceInst &Fence);
  void instrumentMemIntrinsic(MemIntrinsic &MI);
  void instrumentRange(Instruction &I, Value *Addr, Value *Size, bool IsWrite);
  void insertGate(Function &F, StringRef GateName);

  void insertGuardedHook(Instruction &Before, FunctionCallee Hook,
                         ArrayRef<Value *> Args);

  const DataLayout &DL;
  sim::SiteTable Sites;
  GlobalVariable *WorldActive;
  MDNode *Unlikely;
  Type *PtrTy;
  Type *IntOrderTy;
  Type *SizeTy;
  // Indexed by sizeClassOf().
  FunctionCallee ReadHooks[NumSizeClasses], WriteHooks[NumSizeClasses];
  FunctionCallee AtomicLoadHooks[NumSizeClasses],
      AtomicStoreHooks[NumSizeClasses], AtomicRmwHooks[NumSizeClasses],
      AtomicCmpxchgHooks[NumSizeClasses];
  FunctionCallee ReadRangeHook, WriteRangeHook, FenceHook, GateHook;
  StringSet<> GateNames;
  // Capture results for the function being instrumented.
  DenseMap<const AllocaInst *, bool> CapturedAllocas;
  // The instrumented function's reads a later write checks for races.
  SmallPtrSet<const Instruction *, 16> ReadsThenWritten;
};

ModuleInstrumenter::ModuleInstrumenter(Module &M)
    : DL(M.getDataLayout()), Sites(M) {
  LLVMContext &Ctx = M.getContext();
  IRBuilder<> IRB(Ctx);
  PtrTy = IRB.getPtrTy();
  IntOrderTy = IRB.getInt32Ty();
  SizeTy = IRB.getInt64Ty();
  Type *VoidTy = IRB.getVoidTy();

  // A declaration, so each module refers to the runtime's one definition.
  WorldActive = cast<GlobalVariable>(
      M.getOrInsertGlobal("__sim_world_active", IRB.getInt8Ty()));
  Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();

  for (unsigned SizeClass = 0; SizeClass < NumSizeClasses; ++SizeClass) {
    unsigned Bytes = 1u << SizeClass;
    std::string Suffix = std::to_string(Bytes);
    ReadHooks[SizeClass] =
        M.getOrInsertFunction("__sim_read" + Suffix, VoidTy, PtrTy, PtrTy);
    WriteHooks[SizeClass] =
        M.getOrInsertFunction("__sim_write" + Suffix, VoidTy, PtrTy, PtrTy);
    std::string Atomic = "__sim_atomic" + std::to_string(Bytes * 8);
    AtomicLoadHooks[SizeClass] = M.getOrInsertFunction(
        Atomic + "_load", VoidTy, PtrTy, IntOrderTy, PtrTy);
    AtomicStoreHooks[SizeClass] = M.getOrInsertFunction(
        Atomic + "_store", VoidTy, PtrTy, IntOrderTy, PtrTy);
    AtomicRmwHooks[SizeClass] = M.getOrInsertFunction(Atomic + "_rmw", VoidTy,
                                                      PtrTy, IntOrderTy, PtrTy);
    AtomicCmpxchgHooks[SizeClass] = M.getOrInsertFunction(
        Atomic + "_cmpxchg", VoidTy, PtrTy, IntOrderTy, PtrTy);
  }
  ReadRangeHook =
      M.getOrInsertFunction("__sim_read_range", VoidTy, PtrTy, SizeTy, PtrTy);
  WriteRangeHook =
      M.getOrInsertFunction("__sim_write_range", VoidTy, PtrTy, SizeTy, PtrTy);
  FenceHook =
      M.getOrInsertFunction("__sim_atomic_fence", VoidTy, IntOrderTy, PtrTy);
  GateHook = M.getOrInsertFunction("__sim_gate", VoidTy, PtrTy, PtrTy);

  for (const std::string &Name : ClGates)
    GateNames.insert(Name);
}

bool ModuleInstrumenter::isCaptured(const AllocaInst &Alloca) {
  auto [It, Inserted] = CapturedAllocas.try_emplace(&Alloca, true);
  if (Inserted)
    It->second = PointerMayBeCaptured(&Alloca, /*ReturnCaptures=*/true,
                                      /*StoreCaptures=*/true);
  return It->second;
}

SkipReason ModuleInstrumenter::classifyAddress(const Instruction &I,
                                               Value *Addr, bool IsRead) {
  // Other address spaces (GPU, segment-relative) are not the memory the
  // simulated threads share, and the hooks take a generic pointer.
  if (Addr->getType()->getPointerAddressSpace() != 0)
    return SkipReason::NonDefaultAddressSpace;

  if (IsRead) {
    // The vtable pointer of an object is written by its constructor before
    // the object is published, and only read afterwards (TSan skips these
    // loads for the same reason). Clang tags them with TBAA "vtable pointer",
    // or !invariant.group under -fstrict-vtable-pointers.
    const MDNode *Tbaa = I.getMetadata(LLVMContext::MD_tbaa);
    if ((Tbaa && Tbaa->isTBAAVtableAccess()) ||
        I.hasMetadata(LLVMContext::MD_invariant_group))
      return SkipReason::VtableLoad;
    // The frontend promises this memory never changes while it is
    // dereferenceable (e.g. a slot in a vtable), so no write can race it.
    if (I.hasMetadata(LLVMContext::MD_invariant_load))
      return SkipReason::InvariantLoad;
  }

  const Value *Object = getUnderlyingObject(Addr);
  if (const auto *GV = dyn_cast<GlobalVariable>(Object)) {
    // Each thread has its own copy of a thread_local, so no other thread
    // can observe the access.
    if (GV->isThreadLocal())
      return SkipReason::ThreadLocal;
    // Nobody writes a constant global, so reading it cannot race.
    if (IsRead && GV->isConstant())
      return SkipReason::ConstantGlobal;
  }
  if (const auto *Call = dyn_cast<CallBase>(Object)) {
    // llvm.threadlocal.address is this thread's copy of a thread_local; a
    // call to an Itanium TLS wrapper (_ZTW<var>) returns the same for a
    // thread_local with a dynamic initialiser, and so does __sim_tls_address
    // once redirectThreadLocals() has run (its other form, a GEP on
    // llvm.threadlocal.address, has that call as its underlying object).
    if (const auto *Intrinsic = dyn_cast<IntrinsicInst>(Call);
        Intrinsic &&
        Intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address)
      return SkipReason::ThreadLocal;
    if (sim::isRedirectedThreadLocalAddress(*Call))
      return SkipReason::ThreadLocal;
    if (const Function *Callee = Call->getCalledFunction();
        Callee && Callee->getName().starts_with("_ZTW"))
      return SkipReason::ThreadLocal;
  }
  // A stack slot whose address never leaves the function is visible to this
  // thread only.
  if (const auto *Alloca = dyn_cast<AllocaInst>(Object);
      Alloca && !isCaptured(*Alloca))
    return SkipReason::LocalNotCaptured;
  return SkipReason::None;
}

// Whether an access classified as Reason gets a hook; counts it under its
// reason when it does not.
static bool needsHook(SkipReason Reason) {
  switch (Reason) {
  case SkipReason::None:
    return true;
  case SkipReason::LocalNotCaptured:
    ++NumSkippedLocal;
    return false;
  case SkipReason::ConstantGlobal:
    ++NumSkippedConstant;
    return false;
  case SkipReason::VtableLoad:
    ++NumSkippedVtable;
    return false;
  case SkipReason::InvariantLoad:
    ++NumSkippedInvariant;
    return false;
  case SkipReason::ThreadLocal:
    ++NumSkippedThreadLocal;
    return false;
  case SkipReason::NonDefaultAddressSpace:
    ++NumSkippedAddressSpace;
    return false;
  }
  llvm_unreachable("covered switch over SkipReason");
}

bool ModuleInstrumenter::shouldInstrument(Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    if (Load->isAtomic() ? !ClInstrumentAtomics : !ClInstrumentMemoryAccesses)
      return false;
    return needsHook(classifyAddress(I, Load->getPointerOperand(), true));
  }
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    if (Store->isAtomic() ? !ClInstrumentAtomics : !ClInstrumentMemoryAccesses)
      return false;
    return needsHook(classifyAddress(I, Store->getPointerOperand(), false));
  }
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (!ClInstrumentAtomics)
      return false;
    return needsHook(classifyAddress(I, RMW->getPointerOperand(), false));
  }
  if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I)) {
    if (!ClInstrumentAtomics)
      return false;
    return needsHook(classifyAddress(I, CmpXchg->getPointerOperand(), false));
  }
  if (auto *Fence = dyn_cast<FenceInst>(&I)) {
    if (!ClInstrumentAtomics)
      return false;
    // A single-thread fence (std::atomic_signal_fence) orders against a
    // signal handler on the same thread only; no other thread is involved.
    if (Fence->getSyncScopeID() == SyncScope::SingleThread) {
      ++NumSkippedSingleThreadFences;
      return false;
    }
    return true;
  }
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    if (!ClInstrumentMemIntrinsics)
      return false;
    // Instrumented unless both ends are private; instrumentMemIntrinsic()
    // hooks the shared ends only.
    bool DestShared = needsHook(classifyAddress(I, MI->getRawDest(), false));
    auto *Transfer = dyn_cast<MemTransferInst>(MI);
    bool SourceShared =
        Transfer &&
        needsHook(classifyAddress(I, Transfer->getRawSource(), true));
    return DestShared || SourceShared;
  }
  return false;
}

void ModuleInstrumenter::insertGuardedHook(Instruction &Before,
                                           FunctionCallee Hook,
                                           ArrayRef<Value *> Args) {
  sim::insertGuardedCall(Before, *WorldActive, Hook, Args, Unlikely,
                         "sim.in_world");
}

void ModuleInstrumenter::instrumentRange(Instruction &I, Value *Addr,
                                         Value *Size, bool IsWrite) {
  IRBuilder<> IRB(&I);
  Value *Size64 = IRB.CreateZExtOrTrunc(Size, SizeTy);
  insertGuardedHook(I, IsWrite ? WriteRangeHook : ReadRangeHook,
                    {Addr, Size64, Sites.siteFor(I)});
}

void ModuleInstrumenter::instrumentLoadOrStore(Instruction &I, Value *Addr,
                                               Type *AccessTy, bool IsWrite) {
  TypeSize Size = DL.getTypeStoreSize(AccessTy);
  std::optional<unsigned> SizeClass =
      Size.isScalable() ? std::nullopt : sizeClassOf(Size.getFixedValue());
  if (IsWrite)
    ++NumInstrumentedWrites;
  else
    ++NumInstrumentedReads;
  if (!SizeClass) {
    IRBuilder<> IRB(&I);
    instrumentRange(I, Addr, IRB.CreateTypeSize(SizeTy, Size), IsWrite);
    return;
  }
  insertGuardedHook(I, IsWrite ? WriteHooks[*SizeClass] : ReadHooks[*SizeClass],
                    {Addr, Sites.siteFor(I, ReadsThenWritten.contains(&I))});
}

void ModuleInstrumenter::instrumentAtomic(Instruction &I) {
  Value *Addr;
  Type *ValueTy;
  AtomicOrdering Order;
  FunctionCallee *Hooks;
  bool IsWrite = true;
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    Addr = Load->getPointerOperand();
    ValueTy = Load->getType();
    Order = Load->getOrdering();
    Hooks = AtomicLoadHooks;
    IsWrite = false;
  } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
    Addr = Store->getPointerOperand();
    ValueTy = Store->getValueOperand()->getType();
    Order = Store->getOrdering();
    Hooks = AtomicStoreHooks;
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Addr = RMW->getPointerOperand();
    ValueTy = RMW->getValOperand()->getType();
    Order = RMW->getOrdering();
    Hooks = AtomicRmwHooks;
  } else {
    auto *CmpXchg = cast<AtomicCmpXchgInst>(&I);
    Addr = CmpXchg->getPointerOperand();
    ValueTy = CmpXchg->getCompareOperand()->getType();
    Order = CmpXchg->getSuccessOrdering();
    Hooks = AtomicCmpxchgHooks;
  }
  ++NumInstrumentedAtomics;
  std::optional<unsigned> SizeClass =
      sizeClassOf(DL.getTypeStoreSize(ValueTy).getFixedValue());
  // LLVM accepts atomics of other power-of-two sizes (e.g. 32 bytes) that
  // the ABI has no hook for; they are still a scheduling point.
  if (!SizeClass) {
    IRBuilder<> IRB(&I);
    instrumentRange(I, Addr,
                    IRB.CreateTypeSize(SizeTy, DL.getTypeStoreSize(ValueTy)),
                    IsWrite);
    return;
  }
  Value *CABIOrder =
      ConstantInt::get(IntOrderTy, static_cast<int>(toCABI(Order)));
  insertGuardedHook(I, Hooks[*SizeClass], {Addr, CABIOrder, Sites.siteFor(I)});
}

void ModuleInstrumenter::instrumentFence(FenceInst &Fence) {
  ++NumInstrumentedFences;
  Value *CABIOrder = ConstantInt::get(
      IntOrderTy, static_cast<int>(toCABI(Fence.getOrdering())));
  insertGuardedHook(Fence, FenceHook, {CABIOrder, Sites.siteFor(Fence)});
}

void ModuleInstrumenter::instrumentMemIntrinsic(MemIntrinsic &MI) {
  ++NumInstrumentedMemIntrinsics;
  // A copy reads all of its source before it writes its destination.
  if (auto *Transfer = dyn_cast<MemTransferInst>(&MI);
      Transfer &&
      classifyAddress(MI, Transfer->getRawSource(), true) == SkipReason::None)
    instrumentRange(MI, Transfer->getRawSource(), MI.getLength(),
                    /*IsWrite=*/false);
  if (classifyAddress(MI, MI.getRawDest(), false) == SkipReason::None)
    instrumentRange(MI, MI.getRawDest(), MI.getLength(), /*IsWrite=*/true);
}

void ModuleInstrumenter::instrumentAccess(Instruction &I) {
  if (auto *Fence = dyn_cast<FenceInst>(&I))
    return instrumentFence(*Fence);
  if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    return instrumentMemIntrinsic(*MI);
  if (I.isAtomic())
    return instrumentAtomic(I);
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return instrumentLoadOrStore(I, Load->getPointerOperand(), Load->getType(),
                                 /*IsWrite=*/false);
  auto *Store = cast<StoreInst>(&I);
  instrumentLoadOrStore(I, Store->getPointerOperand(),
                        Store->getValueOperand()->getType(), /*IsWrite=*/true);
}

void ModuleInstrumenter::insertGate(Function &F, StringRef GateName) {
  ++NumGates;
  // After the entry block's allocas, which must stay in the entry block to
  // stay static.
  Instruction &Before = *F.getEntryBlock().getFirstNonPHIOrDbgOrAlloca();
  insertGuardedHook(Before, GateHook,
                    {Sites.stringFor(GateName), Sites.entrySiteFor(F)});
}

void ModuleInstrumenter::instrumentFunction(Function &F) {
  if (F.isDeclaration())
    return;
  // The runtime's own functions run the scheduler; a hook in one would
  // re-enter it.
  if (F.getName().starts_with(HookPrefix))
    return;
  // __attribute__((disable_sanitizer_instrumentation)): the user asked for
  // this function to be left exactly as compiled.
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return;

  CapturedAllocas.clear();
  SmallVector<Instruction *, 32> ToInstrument;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (shouldInstrument(I))
        ToInstrument.push_back(&I);
  SmallVector<CallBase *, 8> Calls = sim::callsToHook(F);
  // Before any hook is inserted: each is a call, and splits its block.
  ReadsThenWritten = sim::readsThenWritten(F, ToInstrument);

  if (!ToInstrument.empty() && ClCloneForFastPath &&
      sim::cloneForFastPath(F, *WorldActive, Unlikely))
    ++NumFastPathTwins;

  // Last to first: each split then moves only the instructions up to the
  // previous split point, so a long block costs linear time, not quadratic.
  for (Instruction *I : llvm::reverse(ToInstrument))
    instrumentAccess(*I);
  sim::hookCalls(Calls);

  for (const std::string &Name : gateNamesOf(F))
    if (GateNames.contains(Name)) {
      insertGate(F, Name);
      break;
    }
}

// Lets the runtime (which refers to it weakly) tell whether the program was
// built with the pass.
void defineInstrumentedMarker(Module &M) {
  Type *Int8Ty = Type::getInt8Ty(M.getContext());
  Constant *One = ConstantInt::get(Int8Ty, 1);
  GlobalVariable *Marker = M.getGlobalVariable("__sim_instrumented");
  if (!Marker) {
    new GlobalVariable(M, Int8Ty, /*isConstant=*/true,
                       GlobalValue::WeakODRLinkage, One, "__sim_instrumented");
    return;
  }
  // A declaration from code that includes sim_interface.h.
  if (Marker->isDeclaration()) {
    Marker->setInitializer(One);
    Marker->setConstant(true);
    Marker->setLinkage(GlobalValue::WeakODRLinkage);
  }
}

struct SimPass : PassInfoMixin<SimPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    // Instrumenting twice would put two hooks before each access.
    if (M.getModuleFlag(InstrumentedFlag))
      return PreservedAnalyses::all();
    M.addModuleFlag(Module::Max, InstrumentedFlag, 1);
    defineInstrumentedMarker(M);

    ModuleInstrumenter Instrumenter(M);
    for (Function &F : M)
      Instrumenter.instrumentFunction(F);
    // After instrumenting: the twins need redirecting too, and the hooks
    // were skipped by recognising llvm.threadlocal.address. Registration
    // last, so its addresses stay the calling thread's own.
    sim::redirectThreadLocals(M);
    sim::registerThreadLocals(M);
    return PreservedAnalyses::none();
  }

  static bool isRequired() { return true; } // even in optnone (-O0) functions
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SimPass", "0.1", [](PassBuilder &PB) {
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(SimPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "sim")
                    return false;
                  MPM.addPass(SimPass());
                  return true;
                });
          }};
}
