// lock_state.h: which lock scopes are held at each statement of a function.
//
// A lock scope is one acquisition: a lock_guard/unique_lock/scoped_lock
// variable (held to the end of its block), or an explicit m.lock() (held to
// the matching unlock()). Two statements are under "one lock scope" when the
// same acquisition is held at both; a mutex released and taken again is a
// new scope, and so is a unique_lock after a condition-variable wait (the
// wait releases it). The walk is syntactic and does not follow flow across
// branches: a lock taken in one branch of an if is not carried past it. That
// errs towards "not held", so towards reporting, and only for code that
// locks in a branch and unlocks after it.
#ifndef SIM_GATE_FINDER_LOCK_STATE_H_
#define SIM_GATE_FINDER_LOCK_STATE_H_

#include <deque>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

namespace gate_finder {

struct LockScope {
  int id = 0;
  std::string mutex;  // the mutex expression as written: "mutex_", "forks[first]"
  std::string how;    // "lock_guard, line 30", "mutex_.lock(), line 12", "inside Bin::available()"
};

class LockState {
 public:
  LockState(const clang::Stmt* body, clang::ASTContext& context);

  // The scopes held when `stmt` starts; `stmt` must be in the body, or the
  // answer is that of its nearest recorded ancestor (every statement and
  // expression the walk visits is recorded).
  std::vector<const LockScope*> HeldAt(const clang::Stmt* stmt) const;
  // True when one scope is held at both.
  bool ShareAScope(const clang::Stmt* a, const clang::Stmt* b) const;
  // A scope for a lock taken inside a callee: never shared with the caller's.
  const LockScope* CalleeScope(const std::string& mutex, const std::string& callee);

  // Describes held scopes for a report: "mutex_ (lock_guard, line 30)".
  static std::vector<std::string> Describe(const std::vector<const LockScope*>& scopes);

 private:
  void Walk(const clang::Stmt* stmt);
  void WalkBlock(const clang::CompoundStmt* block);
  bool TakeLockVariable(const clang::VarDecl* var);
  void TakeOrDropByCall(const clang::Stmt* stmt);
  int NewScope(std::string mutex, std::string how, const clang::ValueDecl* guard);
  std::string Text(const clang::Stmt* stmt) const;
  unsigned Line(const clang::Stmt* stmt) const;

  clang::ASTContext& context_;
  std::deque<LockScope> scopes_;  // by id; a deque, so the pointers HeldAt returns stay valid
  struct Held {
    int scope;
    const clang::ValueDecl* guard;  // the lock_guard/unique_lock variable, or null for m.lock()
  };
  std::vector<Held> held_;
  llvm::DenseMap<const clang::Stmt*, std::vector<int>> held_at_;
};

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_LOCK_STATE_H_
