//===- SiteTable.cpp - static site descriptors for the simthread pass -----===//
//
// See SiteTable.h. The layout here must match `struct __sim_site` in
// include/sim/sim_interface.h: two pointers, two unsigned, one unsigned long
// long.
//
//===----------------------------------------------------------------------===//

#include "SiteTable.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace sim {

static constexpr StringLiteral UnknownFile = "<unknown>";

uint64_t siteHash(StringRef File, unsigned Line) {
  constexpr uint64_t FnvOffsetBasis = 14695981039346656037ULL;
  constexpr uint64_t FnvPrime = 1099511628211ULL;
  // rfind gives npos (and npos + 1 == 0) when File has no directory part.
  StringRef Basename = File.substr(File.rfind('/') + 1);
  std::string Key = (Basename + ":" + Twine(Line)).str();
  uint64_t Hash = FnvOffsetBasis;
  for (unsigned char C : Key) {
    Hash ^= C;
    Hash *= FnvPrime;
  }
  return Hash;
}

std::string demangledName(StringRef LinkageName) {
  return llvm::demangle(LinkageName);
}

// The name reports should show for the function a source line belongs to.
// Under -gline-tables-only a subprogram has no linkage name, only "fetch";
// when the line is in F itself, F's symbol still gives the qualified name.
// C functions have no linkage name either; their name is the symbol.
static std::string functionNameOf(const DISubprogram &SP, const Function &F) {
  if (F.getSubprogram() == &SP)
    return demangledName(F.getName());
  StringRef Linkage = SP.getLinkageName();
  return demangledName(Linkage.empty() ? SP.getName() : Linkage);
}

SiteTable::SiteTable(Module &M) : M(M) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  SiteTy = StructType::get(Ctx, {Ptr, Ptr, Type::getInt32Ty(Ctx),
                                 Type::getInt32Ty(Ctx), Type::getInt64Ty(Ctx),
                                 Type::getInt32Ty(Ctx)});
}

/// A file from the system's headers (libstdc++, libc): an access inlined
/// from one is better named by the user's line that called it.
static bool isSystemHeader(StringRef File) {
  return File.starts_with("/usr/include/") || File.starts_with("/usr/lib/");
}

/// The location to name an instruction by: its own, or, when it was inlined
/// from a system header (std::atomic::load, std::string::append), the first
/// location up its inlined-at chain that is the user's code.
static const DILocation *userLocationOf(const DILocation *Loc) {
  for (const DILocation *Candidate = Loc; Candidate;
       Candidate = Candidate->getInlinedAt())
    if (!isSystemHeader(Candidate->getFilename()))
      return Candidate;
  return Loc;
}

Constant *SiteTable::siteFor(const Instruction &I, bool ReadThenWritten) {
  if (const DILocation *Loc = userLocationOf(I.getDebugLoc())) {
    const DISubprogram *SP = Loc->getScope()->getSubprogram();
    std::string Function = SP ? functionNameOf(*SP, *I.getFunction())
                              : demangledName(I.getFunction()->getName());
    return getOrCreateSite(Loc->getFilename(), Function, Loc->getLine(),
                           Loc->getColumn(), ReadThenWritten);
  }
  return getOrCreateSite(UnknownFile, demangledName(I.getFunction()->getName()),
                         0, 0, ReadThenWritten);
}

Constant *SiteTable::entrySiteFor(const Function &F) {
  if (const DISubprogram *SP = F.getSubprogram())
    return getOrCreateSite(SP->getFilename(), functionNameOf(*SP, F),
                           SP->getLine(), 0);
  return getOrCreateSite(UnknownFile, demangledName(F.getName()), 0, 0);
}

Constant *SiteTable::stringFor(StringRef S) {
  Constant *&Slot = Strings[S];
  if (!Slot) {
    Constant *Init = ConstantDataArray::getString(M.getContext(), S);
    auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                  GlobalValue::PrivateLinkage, Init, "sim.str");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    GV->setAlignment(Align(1));
    Slot = GV;
  }
  return Slot;
}

Constant *SiteTable::getOrCreateSite(StringRef File, StringRef Function,
                                     unsigned Line, unsigned Column,
                                     bool ReadThenWritten) {
  Constant *&Slot =
      Sites[SiteKey(File.str(), Function.str(), Line, Column, ReadThenWritten)];
  if (!Slot) {
    LLVMContext &Ctx = M.getContext();
    Constant *Init = ConstantStruct::get(
        SiteTy, {stringFor(File), stringFor(Function),
                 ConstantInt::get(Type::getInt32Ty(Ctx), Line),
                 ConstantInt::get(Type::getInt32Ty(Ctx), Column),
                 ConstantInt::get(Type::getInt64Ty(Ctx), siteHash(File, Line)),
                 ConstantInt::get(Type::getInt32Ty(Ctx), ReadThenWritten)});
    auto *GV =
        new GlobalVariable(M, SiteTy, /*isConstant=*/true,
                           GlobalValue::PrivateLinkage, Init, "sim.site");
    GV->setAlignment(Align(8));
    Slot = GV;
  }
  return Slot;
}

} // namespace sim
