// gate_placement.cpp: where a window's gate goes (gate_placement.h).
#include "gate_placement.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "gate_proposal.h"
#include "source_text.h"

namespace gate_finder {

unsigned GatePlacement::Begin(const clang::Stmt* stmt) const {
  return sources_.getFileOffset(sources_.getExpansionLoc(stmt->getBeginLoc()));
}

bool GatePlacement::Contains(const clang::Stmt* outer, unsigned offset) const {
  return Begin(outer) <= offset && offset <= sources_.getFileOffset(sources_.getExpansionLoc(outer->getEndLoc()));
}

bool GatePlacement::SharesScopeWith(const clang::Stmt* stmt, const std::vector<const LockScope*>& scopes) const {
  for (const LockScope* held : locks_.HeldAt(stmt)) {
    for (const LockScope* scope : scopes) {
      if (held->id == scope->id) return true;
    }
  }
  return false;
}

GateInsertion GatePlacement::For(const clang::Stmt* check, const clang::Stmt* act, const std::string& gate) const {
  GateInsertion insertion;
  const unsigned check_offset = Begin(check);
  const std::vector<const LockScope*> check_scopes = locks_.HeldAt(check);
  const clang::Stmt* before = nullptr;
  const clang::Stmt* wrap = nullptr;
  const clang::Stmt* current = act;
  while (current != nullptr && current != body_) {
    const clang::Stmt* parent = parents_.getParent(current);
    if (parent == nullptr) break;
    if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(parent)) {
      if (Contains(block, check_offset)) {
        const clang::Stmt* const* children = block->body_begin();
        const std::size_t count = block->size();
        std::size_t holding_check = count;
        for (std::size_t i = 0; i < count; ++i) {
          if (Contains(children[i], check_offset)) holding_check = i;
        }
        // The first statement after the check at which the check's own
        // lock is no longer held: a caller parked there blocks nobody.
        const bool check_beside_act = holding_check < count && children[holding_check] != current;
        for (std::size_t i = holding_check + 1; check_beside_act && i < count; ++i) {
          if (!SharesScopeWith(children[i], check_scopes)) {
            before = children[i];
            wrap = nullptr;
            break;
          }
          if (children[i] == current) {
            // Held up to the act: one lock scope closes the window (a
            // suppressed one); its gate parks the caller under that lock.
            before = children[holding_check + 1];
            wrap = nullptr;
            break;
          }
        }
        break;
      }
      if (!block->body_empty()) {
        before = block->body_front();
        wrap = nullptr;
      }
    } else if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(parent);
               branch && (branch->getThen() == current || branch->getElse() == current) &&
               !llvm::isa<clang::CompoundStmt>(current) && Begin(current) > check_offset) {
      wrap = current;
      before = nullptr;
    }
    current = parent;
  }
  const clang::Stmt* target = wrap != nullptr ? wrap : before;
  if (target == nullptr) {
    insertion.not_possible_because = "no statement boundary lies between the check and the act";
    return insertion;
  }
  if (target->getBeginLoc().isMacroID()) {
    const std::string text = QuoteStmt(target, context_, 400);
    if (text.rfind("SIM_GATE(\"", 0) == 0 && text.find('"', 10) != std::string::npos) {
      insertion.existing_gate = text.substr(10, text.find('"', 10) - 10);
      insertion.not_possible_because = "the window is gated already";
      return insertion;
    }
    insertion.not_possible_because = "the window's first statement is inside a macro";
    return insertion;
  }
  insertion.at = PointOf(target->getBeginLoc(), context_);
  const std::string line = GateLine(gate);
  if (wrap != nullptr) {
    clang::SourceLocation end = clang::Lexer::findLocationAfterToken(
        sources_.getExpansionLoc(wrap->getEndLoc()), clang::tok::semi, sources_, context_.getLangOpts(), false);
    if (end.isInvalid()) {
      end = clang::Lexer::getLocForEndOfToken(sources_.getExpansionLoc(wrap->getEndLoc()), 0, sources_,
                                              context_.getLangOpts());
    }
    insertion.text = "{ " + line + " ";
    insertion.closing_at = PointOf(end, context_);
    insertion.closing = " }";
  } else {
    insertion.text = line + "\n" + std::string(insertion.at.column - 1, ' ');
  }
  insertion.possible = true;
  return insertion;
}

}  // namespace gate_finder
