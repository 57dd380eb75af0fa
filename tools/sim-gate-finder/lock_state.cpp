// lock_state.cpp: the lock scopes held at each statement (lock_state.h).
#include "lock_state.h"

#include <optional>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "source_text.h"

namespace gate_finder {
namespace {

bool IsLockHolderType(const std::string& type) {
  for (const char* holder : {"lock_guard", "unique_lock", "scoped_lock", "shared_lock", "MutexLock", "ReaderMutexLock",
                             "WriterMutexLock", "SpinLockHolder", "LockGuard", "ScopedLock"}) {
    if (type.find(holder) != std::string::npos) return true;
  }
  return false;
}

// The arguments a lock holder was constructed with, whatever form the
// initialiser takes (in a template it is often still unresolved).
std::vector<const clang::Expr*> ConstructorArguments(const clang::Expr* init) {
  std::vector<const clang::Expr*> arguments;
  if (init == nullptr) return arguments;
  init = init->IgnoreImplicit();
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(init)) {
    for (const clang::Expr* argument : construct->arguments()) {
      if (!llvm::isa<clang::CXXDefaultArgExpr>(argument)) arguments.push_back(argument);
    }
  } else if (const auto* list = llvm::dyn_cast<clang::ParenListExpr>(init)) {
    for (unsigned i = 0; i < list->getNumExprs(); ++i) arguments.push_back(list->getExpr(i));
  } else if (const auto* unresolved = llvm::dyn_cast<clang::CXXUnresolvedConstructExpr>(init)) {
    for (const clang::Expr* argument : unresolved->arguments()) arguments.push_back(argument);
  } else if (const auto* braces = llvm::dyn_cast<clang::InitListExpr>(init)) {
    for (const clang::Expr* argument : braces->inits()) arguments.push_back(argument);
  }
  return arguments;
}

// The object and method name of a member call, resolved or not.
struct MemberCall {
  const clang::Expr* object = nullptr;
  std::string method;
  std::vector<const clang::Expr*> arguments;
};

std::optional<MemberCall> AsMemberCall(const clang::Stmt* stmt) {
  const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt);
  if (call == nullptr) return std::nullopt;
  MemberCall member;
  const clang::Expr* callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto* resolved = llvm::dyn_cast<clang::MemberExpr>(callee)) {
    member.object = resolved->getBase();
    member.method = resolved->getMemberNameInfo().getAsString();
  } else if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(callee)) {
    if (dependent->isImplicitAccess()) return std::nullopt;
    member.object = dependent->getBase();
    member.method = dependent->getMember().getAsString();
  } else {
    return std::nullopt;
  }
  for (const clang::Expr* argument : call->arguments()) member.arguments.push_back(argument);
  return member;
}

const clang::ValueDecl* NamedVariable(const clang::Expr* expr) {
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts())) return ref->getDecl();
  return nullptr;
}

}  // namespace

LockState::LockState(const clang::Stmt* body, clang::ASTContext& context) : context_(context) {
  if (body != nullptr) Walk(body);
}

std::string LockState::Text(const clang::Stmt* stmt) const { return QuoteStmt(stmt, context_, 60); }

unsigned LockState::Line(const clang::Stmt* stmt) const { return PointOf(stmt->getBeginLoc(), context_).line; }

int LockState::NewScope(std::string mutex, std::string how, const clang::ValueDecl* guard) {
  const int id = static_cast<int>(scopes_.size());
  scopes_.push_back({id, std::move(mutex), std::move(how)});
  if (guard != nullptr || !scopes_.back().mutex.empty()) held_.push_back({id, guard});
  return id;
}

const LockScope* LockState::CalleeScope(const std::string& mutex, const std::string& callee) {
  const int id = static_cast<int>(scopes_.size());
  scopes_.push_back({id, mutex, "inside " + callee});
  return &scopes_.back();
}

bool LockState::TakeLockVariable(const clang::VarDecl* var) {
  if (!IsLockHolderType(var->getType().getAsString())) return false;
  const std::vector<const clang::Expr*> arguments = ConstructorArguments(var->getInit());
  if (arguments.empty()) return true;  // constructed unlocked
  std::string mutex;
  for (const clang::Expr* argument : arguments) {
    const std::string text = Text(argument);
    // Deferred: the lock is taken later by an explicit lock(), which the walk sees.
    if (text.find("defer_lock") != std::string::npos || text.find("try_to_lock") != std::string::npos) return true;
    if (text.find("adopt_lock") != std::string::npos) continue;
    mutex += (mutex.empty() ? "" : ", ") + text;
  }
  const std::string type = var->getType().getAsString();
  std::string holder = type.substr(0, type.find('<'));
  if (const auto colon = holder.rfind("::"); colon != std::string::npos) holder = holder.substr(colon + 2);
  NewScope(mutex, holder + ", line " + std::to_string(PointOf(var->getLocation(), context_).line), var);
  return true;
}

void LockState::TakeOrDropByCall(const clang::Stmt* stmt) {
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    if (const clang::FunctionDecl* callee = call->getDirectCallee(); callee != nullptr && call->getNumArgs() == 1) {
      const std::string name = callee->getNameAsString();
      const std::string mutex = Text(call->getArg(0)->IgnoreParenImpCasts());
      const std::string bare = mutex.rfind('&', 0) == 0 ? mutex.substr(1) : mutex;
      if (name == "pthread_mutex_lock" || name == "pthread_spin_lock") {
        NewScope(bare, name + "(), line " + std::to_string(Line(stmt)), nullptr);
        return;
      }
      if (name == "pthread_mutex_unlock" || name == "pthread_spin_unlock") {
        for (auto held = held_.rbegin(); held != held_.rend(); ++held) {
          if (held->guard == nullptr && scopes_[held->scope].mutex == bare) {
            held_.erase(std::next(held).base());
            break;
          }
        }
        return;
      }
    }
  }
  const std::optional<MemberCall> call = AsMemberCall(stmt);
  if (!call) return;
  const std::string& method = call->method;
  const bool locks = method == "lock" || method == "lock_shared";
  const bool unlocks = method == "unlock" || method == "unlock_shared";
  const bool waits = method == "wait" || method == "wait_for" || method == "wait_until";
  if (!locks && !unlocks && !waits) return;
  if (waits) {
    if (call->arguments.empty()) return;
    const clang::ValueDecl* guard = NamedVariable(call->arguments[0]);
    for (Held& held : held_) {
      if (held.guard != nullptr && held.guard == guard) {
        const std::string mutex = scopes_[held.scope].mutex;
        held_.erase(held_.begin() + (&held - held_.data()));
        NewScope(mutex, "re-taken by " + Text(call->object) + "." + method + "(), line " + std::to_string(Line(stmt)),
                 guard);
        return;
      }
    }
    return;
  }
  const clang::ValueDecl* guard = NamedVariable(call->object);
  if (guard != nullptr && IsLockHolderType(guard->getType().getAsString())) {
    if (unlocks) {
      std::erase_if(held_, [&](const Held& held) { return held.guard == guard; });
      return;
    }
    std::string mutex = guard->getNameAsString();
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(guard)) {
      const std::vector<const clang::Expr*> arguments = ConstructorArguments(var->getInit());
      if (!arguments.empty()) mutex = Text(arguments[0]);
    }
    std::erase_if(held_, [&](const Held& held) { return held.guard == guard; });
    NewScope(mutex, guard->getNameAsString() + "." + method + "(), line " + std::to_string(Line(stmt)), guard);
    return;
  }
  const std::string mutex = Text(call->object);
  if (locks) {
    NewScope(mutex, mutex + "." + method + "(), line " + std::to_string(Line(stmt)), nullptr);
    return;
  }
  for (auto held = held_.rbegin(); held != held_.rend(); ++held) {
    if (held->guard == nullptr && scopes_[held->scope].mutex == mutex) {
      held_.erase(std::next(held).base());
      return;
    }
  }
}

void LockState::WalkBlock(const clang::CompoundStmt* block) {
  const std::vector<Held> at_entry = held_;
  for (const clang::Stmt* child : block->body()) Walk(child);
  held_ = at_entry;  // lock holders declared in the block are destroyed at its end
}

void LockState::Walk(const clang::Stmt* stmt) {
  if (stmt == nullptr) return;
  std::vector<int>& held_here = held_at_[stmt];
  held_here.clear();
  for (const Held& held : held_) held_here.push_back(held.scope);
  // A lambda's body runs when it is called, often on another thread: its
  // locks are not the enclosing function's.
  if (llvm::isa<clang::LambdaExpr>(stmt)) return;
  if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(stmt)) {
    WalkBlock(block);
    return;
  }
  const bool branches = llvm::isa<clang::IfStmt>(stmt) || llvm::isa<clang::ForStmt>(stmt) ||
                        llvm::isa<clang::WhileStmt>(stmt) || llvm::isa<clang::DoStmt>(stmt) ||
                        llvm::isa<clang::SwitchStmt>(stmt) || llvm::isa<clang::CXXForRangeStmt>(stmt) ||
                        llvm::isa<clang::CXXTryStmt>(stmt);
  const std::vector<Held> before = held_;
  for (const clang::Stmt* child : stmt->children()) {
    Walk(child);
    // An if's condition may take a lock (`if (std::lock_guard g(m); ...)`) that
    // holds over both branches; a branch's own locks do not outlive it.
    if (branches && child != nullptr && !llvm::isa<clang::Expr>(child) && !llvm::isa<clang::DeclStmt>(child)) {
      held_ = before;
    }
  }
  if (const auto* declarations = llvm::dyn_cast<clang::DeclStmt>(stmt)) {
    for (const clang::Decl* declaration : declarations->decls()) {
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(declaration)) TakeLockVariable(var);
    }
  } else {
    TakeOrDropByCall(stmt);
  }
}

std::vector<const LockScope*> LockState::HeldAt(const clang::Stmt* stmt) const {
  std::vector<const LockScope*> scopes;
  const auto found = held_at_.find(stmt);
  if (found == held_at_.end()) return scopes;
  for (int id : found->second) scopes.push_back(&scopes_[id]);
  return scopes;
}

bool LockState::ShareAScope(const clang::Stmt* a, const clang::Stmt* b) const {
  for (const LockScope* at_a : HeldAt(a)) {
    for (const LockScope* at_b : HeldAt(b)) {
      if (at_a->id == at_b->id) return true;
    }
  }
  return false;
}

std::vector<std::string> LockState::Describe(const std::vector<const LockScope*>& scopes) {
  std::vector<std::string> described;
  for (const LockScope* scope : scopes) described.push_back(scope->mutex + " (" + scope->how + ")");
  return described;
}

}  // namespace gate_finder
