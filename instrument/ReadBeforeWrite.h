//===- ReadBeforeWrite.h - reads whose race check a later write makes -----===//
//
// ThreadSanitizer does not check a read that a write of the same address
// follows in its basic block with no call between (x++ is checked once, at
// its store): whatever races with the read races with the write, which
// comes after it with no synchronisation between, so the race is still
// reported, as the write's. The simthread pass marks such reads in their
// site (read_then_written); they stay scheduling points, only the race
// detector passes them by. Here an atomic or a fence between also keeps a
// read checked (its acquire could order the write and not the read), and
// the write must be of the read's size (a narrower one would leave bytes
// unchecked).
//
//===----------------------------------------------------------------------===//

#ifndef SIMTHREAD_INSTRUMENT_READBEFOREWRITE_H
#define SIMTHREAD_INSTRUMENT_READBEFOREWRITE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace sim {

/// The plain loads of F, among Instrumented (the accesses the pass hooks),
/// that a hooked plain store of the same pointer and size follows in their
/// basic block with nothing between that may synchronise.
llvm::SmallPtrSet<const llvm::Instruction *, 16>
readsThenWritten(llvm::Function &F,
                 llvm::ArrayRef<llvm::Instruction *> Instrumented);

} // namespace sim

#endif // SIMTHREAD_INSTRUMENT_READBEFOREWRITE_H
