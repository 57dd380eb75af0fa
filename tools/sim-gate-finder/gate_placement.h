// gate_placement.h: where a window's SIM_GATE line goes.
//
// The earliest statement after the check that every path to the act
// passes, and at which the check's own lock scope is no longer held, so
// that a caller parked at the gate blocks nobody (where one scope is held
// up to the act, as in a suppressed window, the first statement after the
// check). A lone statement under an `if` gets braces around it and the
// gate. A window whose first statement is a macro gets no gate, and one
// whose first statement is a SIM_GATE is gated already.
#ifndef SIM_GATE_FINDER_GATE_PLACEMENT_H_
#define SIM_GATE_FINDER_GATE_PLACEMENT_H_

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "finding.h"
#include "lock_state.h"

namespace gate_finder {

class GatePlacement {
 public:
  // Over the body of one function, its locks and its statements' parents.
  GatePlacement(const clang::Stmt* body, clang::ASTContext& context, const LockState& locks,
                const clang::ParentMap& parents)
      : body_(body), context_(context), sources_(context.getSourceManager()), locks_(locks), parents_(parents) {}

  // The gate named `gate` for the window from `check` to `act`.
  GateInsertion For(const clang::Stmt* check, const clang::Stmt* act, const std::string& gate) const;

 private:
  unsigned Begin(const clang::Stmt* stmt) const;
  bool Contains(const clang::Stmt* outer, unsigned offset) const;
  bool SharesScopeWith(const clang::Stmt* stmt, const std::vector<const LockScope*>& scopes) const;

  const clang::Stmt* body_;
  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  const LockState& locks_;
  const clang::ParentMap& parents_;
};

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_GATE_PLACEMENT_H_
