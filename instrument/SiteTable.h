//===- SiteTable.h - static site descriptors for the simthread pass -------===//
//
// Emits the `struct __sim_site` constants (include/sim/sim_interface.h) that
// every hook call passes, so the runtime can name a source location without a
// symbolizer. One table per module; identical sites and strings are emitted
// once. What a site means at run time is the runtime's business.
//
//===----------------------------------------------------------------------===//

#ifndef SIMTHREAD_INSTRUMENT_SITETABLE_H
#define SIMTHREAD_INSTRUMENT_SITETABLE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace llvm {
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace sim {

/// FNV-1a 64 of "basename(File):Line", the `hash` field of a site. The trace
/// hash is built from it, so it depends on neither load addresses nor the
/// directory the build ran in.
uint64_t siteHash(llvm::StringRef File, unsigned Line);

/// The demangled name of a function for reports, e.g.
/// "Repository::fetch(int) const"; names that are not mangled are returned
/// as they are.
std::string demangledName(llvm::StringRef LinkageName);

class SiteTable {
public:
  explicit SiteTable(llvm::Module &M);

  /// The site of I: its DebugLoc (file as the DIFile stores it, the
  /// function the source line belongs to, which differs from I's function
  /// when I was inlined), or "<unknown>":0 and I's function without one.
  /// ReadThenWritten: the site's read_then_written (ReadBeforeWrite.h).
  llvm::Constant *siteFor(const llvm::Instruction &I,
                          bool ReadThenWritten = false);

  /// The site of F's entry: the line of its DISubprogram, column 0.
  llvm::Constant *entrySiteFor(const llvm::Function &F);

  /// A private NUL-terminated string constant, emitted once per module.
  llvm::Constant *stringFor(llvm::StringRef S);

private:
  llvm::Constant *getOrCreateSite(llvm::StringRef File,
                                  llvm::StringRef Function, unsigned Line,
                                  unsigned Column,
                                  bool ReadThenWritten = false);

  using SiteKey =
      std::tuple<std::string, std::string, unsigned, unsigned, bool>;

  llvm::Module &M;
  // Layout of struct __sim_site: file, function, line, column, hash,
  // read_then_written.
  llvm::StructType *SiteTy;
  llvm::StringMap<llvm::Constant *> Strings;
  std::map<SiteKey, llvm::Constant *> Sites;
};

} // namespace sim

#endif // SIMTHREAD_INSTRUMENT_SITETABLE_H
