// window_finder.h: the check-then-act shapes, over one function at a time.
//
// For every `if` whose condition checks a shared object X (directly, through
// a local initialised from X, or through a method of the same class that
// reads X), the act is the first write to X that the check guards: in a
// branch of the if, or after it when the branch leaves (`if (c) return;`).
// For a local that copies X and is later written back into X, the read and
// the write are the two ends (a read-modify-write split over two sections).
// For access()/stat() of a path, the act is a later open/rename/unlink of
// the same path.
//
// Precision over recall. A window is suppressed when:
//   - one lock scope is held at both ends (lock_state.h);
//   - X is checked again, under a lock scope held at the act, between the
//     two ends (correct double-checked locking);
//   - the act is a compare-exchange, exchange or test_and_set, which checks
//     again in the same atomic step;
//   - X is not plausibly shared (shared_objects.h: locals, thread_local,
//     const);
//   - the function is a constructor or destructor (no other thread can see
//     the object yet, or any longer).
// Suppressed windows are still returned, marked, so that --suppressed can
// show them and put a gate at the same place in a fixed version.
#ifndef SIM_GATE_FINDER_WINDOW_FINDER_H_
#define SIM_GATE_FINDER_WINDOW_FINDER_H_

#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "finding.h"
#include "shared_objects.h"

namespace gate_finder {

// Appends the windows in `function`'s body to `findings`.
void FindWindows(const clang::FunctionDecl* function, clang::ASTContext& context, const SharedObjects& shared,
                 std::vector<Finding>& findings);

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_WINDOW_FINDER_H_
