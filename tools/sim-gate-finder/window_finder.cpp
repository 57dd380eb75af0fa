// window_finder.cpp: the check-then-act shapes (window_finder.h).
#include "window_finder.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "accesses.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "gate_placement.h"
#include "gate_proposal.h"
#include "lock_state.h"
#include "source_text.h"

namespace gate_finder {
namespace {

// A check: where it is, what it reads, and the statement quoted as its text.
struct Check {
  Access access;
  const clang::Stmt* quoted;  // the condition, or the local's initialiser
};

bool Exits(const clang::Stmt* stmt) {
  if (stmt == nullptr) return false;
  if (llvm::isa<clang::ReturnStmt>(stmt) || llvm::isa<clang::BreakStmt>(stmt) ||
      llvm::isa<clang::ContinueStmt>(stmt) || llvm::isa<clang::GotoStmt>(stmt) ||
      llvm::isa<clang::CXXThrowExpr>(stmt)) {
    return true;
  }
  if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(stmt)) return Exits(block->body_back());
  return false;
}

// `if (count_ == 0) not_empty_.wait(lock);`: the branch waits and falls
// through, so what follows the if depends on the check, across the wait.
bool OnlyWaits(const clang::Stmt* stmt) {
  if (const auto* block = llvm::dyn_cast_or_null<clang::CompoundStmt>(stmt)) {
    return block->size() == 1 && OnlyWaits(block->body_front());
  }
  const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(stmt);
  if (call == nullptr || call->getMethodDecl() == nullptr) return false;
  const std::string method = call->getMethodDecl()->getNameAsString();
  return method == "wait" || method == "wait_for" || method == "wait_until";
}

bool IsLoop(const clang::Stmt* stmt) {
  return llvm::isa<clang::ForStmt>(stmt) || llvm::isa<clang::WhileStmt>(stmt) || llvm::isa<clang::DoStmt>(stmt) ||
         llvm::isa<clang::CXXForRangeStmt>(stmt);
}

const char* RepairFor(Shape shape) {
  switch (shape) {
    case Shape::kLazyInit:
      return "build it once: std::call_once or a function-local static, or check again under the lock that "
             "guards the build";
    case Shape::kContainer:
      return "one operation under one lock: use insert/try_emplace's result, or hold one lock across the check and "
             "the act";
    case Shape::kAtomicCheck:
      return "one atomic step: a compare_exchange loop that re-checks, exchange, or the value fetch_add returns";
    case Shape::kSplitSection:
      return "hold one lock scope from the check (or read) to the act";
    case Shape::kFileTimeOfCheck:
      return "act on what you opened: open(O_CREAT | O_EXCL | O_NOFOLLOW), then fstat the descriptor";
  }
  return "";
}

class FunctionWindows {
 public:
  FunctionWindows(const clang::FunctionDecl* function, clang::ASTContext& context, const SharedObjects& shared)
      : function_(function),
        body_(function->getBody()),
        context_(context),
        sources_(context.getSourceManager()),
        accesses_(context, shared),
        locks_(body_, context),
        parents_(const_cast<clang::Stmt*>(body_)) {}

  void Find(std::vector<Finding>& findings) {
    CollectConditions(body_);
    for (const clang::IfStmt* branch : ifs_) FromIf(branch, findings);
    FromLocalCopies(findings);
    FromFileChecks(findings);
  }

 private:
  unsigned Offset(clang::SourceLocation location) const {
    return sources_.getFileOffset(sources_.getExpansionLoc(location));
  }
  unsigned Begin(const clang::Stmt* stmt) const { return Offset(stmt->getBeginLoc()); }
  unsigned End(const clang::Stmt* stmt) const { return Offset(stmt->getEndLoc()); }
  bool Contains(const clang::Stmt* outer, unsigned offset) const {
    return Begin(outer) <= offset && offset <= End(outer);
  }

  // Every if (for the shapes) and every condition (for re-checks), outside lambdas.
  void CollectConditions(const clang::Stmt* stmt) {
    if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return;
    const clang::Expr* condition = nullptr;
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(stmt)) {
      ifs_.push_back(branch);
      condition = branch->getCond();
    } else if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(stmt)) {
      condition = loop->getCond();
    } else if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(stmt)) {
      condition = loop->getCond();
    } else if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(stmt)) {
      condition = loop->getCond();
    } else if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(stmt)) {
      condition = choice->getCond();
    }
    if (condition != nullptr) {
      for (const Check& check : ChecksIn(condition, stmt)) rechecks_.push_back(check.access);
    }
    for (const clang::Stmt* child : stmt->children()) CollectConditions(child);
  }

  // The checks of a condition: its own reads and queries, and those of the
  // initialisers of the locals it tests (`bool claimed = !store_.get(k); if (claimed)`).
  std::vector<Check> ChecksIn(const clang::Expr* condition, const clang::Stmt* owner) {
    std::vector<Check> checks;
    auto add = [&](const clang::Stmt* where, const clang::Stmt* quoted) {
      for (const Access& access : accesses_.In(where)) {
        if (IsCheck(access.kind)) checks.push_back({access, quoted});
      }
    };
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(owner)) {
      if (branch->getInit() != nullptr) add(branch->getInit(), condition);
      if (const clang::VarDecl* variable = branch->getConditionVariable(); variable && variable->getInit()) {
        add(variable->getInit(), condition);
      }
    }
    add(condition, condition);
    std::vector<const clang::VarDecl*> locals;
    LocalsIn(condition, locals);
    for (const clang::VarDecl* local : locals) {
      if (local->getInit() != nullptr && Begin(local->getInit()) < Begin(condition))
        add(local->getInit(), local->getInit());
    }
    return checks;
  }

  void LocalsIn(const clang::Stmt* stmt, std::vector<const clang::VarDecl*>& locals) const {
    if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
      const auto* variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (variable != nullptr && variable->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(variable) &&
          std::find(locals.begin(), locals.end(), variable) == locals.end()) {
        locals.push_back(variable);
      }
    }
    for (const clang::Stmt* child : stmt->children()) LocalsIn(child, locals);
  }

  // The statements an if's check guards: its branches, and, when the branch
  // leaves or only waits, what follows the if (up to the enclosing loop).
  std::vector<const clang::Stmt*> GuardedBy(const clang::IfStmt* branch) const {
    std::vector<const clang::Stmt*> guarded = {branch->getThen()};
    if (branch->getElse() != nullptr) guarded.push_back(branch->getElse());
    if (!Exits(branch->getThen()) && !OnlyWaits(branch->getThen())) return guarded;
    const clang::Stmt* current = branch;
    while (current != body_) {
      const clang::Stmt* parent = parents_.getParent(current);
      if (parent == nullptr || IsLoop(parent) || llvm::isa<clang::LambdaExpr>(parent)) break;
      if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(parent)) {
        bool after = false;
        for (const clang::Stmt* child : block->body()) {
          if (after) guarded.push_back(child);
          if (child == current) after = true;
        }
      }
      current = parent;
    }
    return guarded;
  }

  std::vector<const LockScope*> LocksAt(const Access& access) {
    std::vector<const LockScope*> scopes = locks_.HeldAt(access.expr);
    if (access.via != nullptr) {
      for (const std::string& mutex : access.locks_in_callee) {
        scopes.push_back(locks_.CalleeScope(mutex, access.via->getQualifiedNameAsString() + "()"));
      }
    }
    return scopes;
  }

  // A check of `object` between the two ends, under a lock scope held at the
  // act: the act no longer depends on the first check alone.
  const Access* Recheck(const Access& check, const Access& act) {
    for (const Access& recheck : rechecks_) {
      if (recheck.object != check.object || recheck.expr == check.expr) continue;
      if (Begin(recheck.expr) <= End(check.expr) || Begin(recheck.expr) >= Begin(act.expr)) continue;
      if (locks_.ShareAScope(recheck.expr, act.expr)) return &recheck;
    }
    // Inside the method that acts: a check of the object under the lock the act holds.
    if (act.via != nullptr) {
      for (const Access& inside : accesses_.In(act.expr)) {
        if (inside.object != act.object || !IsCheck(inside.kind) || inside.via != act.via) continue;
        if (inside.inner == nullptr || act.inner == nullptr || Begin(inside.inner) >= Begin(act.inner)) continue;
        for (const std::string& mutex : inside.locks_in_callee) {
          if (std::find(act.locks_in_callee.begin(), act.locks_in_callee.end(), mutex) != act.locks_in_callee.end()) {
            return &inside;
          }
        }
      }
    }
    return nullptr;
  }

  Shape ShapeOf(const Access& check, const Access& act) const {
    if (check.kind == AccessKind::kQuery && check.method != "load" && check.method != "test") return Shape::kContainer;
    if (SharedObjects::IsAtomic(check.object)) return Shape::kAtomicCheck;
    const clang::QualType type = check.object->getType();
    const std::string name = type.getAsString();
    const bool nullable = type->isPointerType() || type->isBooleanType() || name.find("ptr") != std::string::npos ||
                          name.find("optional") != std::string::npos;
    if (act.kind == AccessKind::kWrite && nullable) return Shape::kLazyInit;
    return Shape::kSplitSection;
  }

  static std::string Why(Shape shape, const std::string& object, const std::vector<const LockScope*>& at_check,
                         const std::vector<const LockScope*>& at_act) {
    std::string why = shape == Shape::kAtomicCheck ? "each access to " + object + " is atomic, but the check and the " +
                                                         "act are two steps; "
                                                   : "";
    if (at_check.empty() && at_act.empty()) {
      return why + "no lock is held at the check or at the act: a second caller can pass the check before the first "
                   "acts";
    }
    if (at_check.empty()) {
      return why + "the act holds " + at_act.front()->mutex + " but the check does not, and " + object +
             " is not checked again under it: two callers can both pass the check, then act one after the other";
    }
    if (at_act.empty()) {
      return why + "the check holds " + at_check.front()->mutex + " but the act holds no lock: a second caller can "
                                                                  "pass the check before the first acts";
    }
    for (const LockScope* scope : at_act) {
      if (scope->how.rfind("re-taken by", 0) == 0) {
        return why + "the wait releases " + scope->mutex + " between the check and the act: another thread can " +
               "change " + object + " in between";
      }
    }
    return why + "the check's lock on " + at_check.front()->mutex + " is released before the act takes " +
           at_act.front()->mutex + ": a second caller can check and act in between";
  }

  std::string CallArguments() const {
    std::string arguments;
    for (const clang::ParmVarDecl* parameter : function_->parameters()) {
      clang::QualType type = parameter->getType().getNonReferenceType().getUnqualifiedType();
      if (!arguments.empty()) arguments += ", ";
      arguments += type.getAsString(context_.getPrintingPolicy()) + "{}";
    }
    return arguments;
  }

  void Report(Shape shape, const Access& check, const clang::Stmt* quoted_check, const Access& act,
              const clang::Stmt* act_statement, std::vector<Finding>& findings) {
    Finding finding;
    finding.shape = shape;
    finding.object = SharedObjects::QualifiedName(check.object);
    finding.check.at = PointOf(quoted_check->getBeginLoc(), context_);
    finding.check.text = QuoteStmt(quoted_check, context_);
    if (check.via != nullptr) finding.check.function = check.via->getQualifiedNameAsString() + "()";
    finding.act.at = PointOf(act.expr->getBeginLoc(), context_);
    finding.act.text = QuoteStmt(act.expr, context_);
    if (act.via != nullptr) {
      finding.act.function = act.via->getQualifiedNameAsString() + "()";
      if (act.inner != nullptr) finding.act.text += " -> " + QuoteStmt(act.inner, context_);
    }
    const std::vector<const LockScope*> at_check = LocksAt(check);
    const std::vector<const LockScope*> at_act = LocksAt(act);
    finding.check.locks = LockState::Describe(at_check);
    finding.act.locks = LockState::Describe(at_act);
    finding.repair = RepairFor(shape);
    const clang::CXXRecordDecl* owner = SharedObjects::Owner(check.object);
    finding.gate = GateName(owner != nullptr ? owner->getNameAsString() : FileStem(finding.check.at.file),
                            check.object->getNameAsString());
    if (locks_.ShareAScope(check.expr, act.expr)) {
      finding.suppressed = true;
      finding.why = "suppressed: one lock scope, " + locks_.HeldAt(check.expr).front()->mutex + " (" +
                    locks_.HeldAt(check.expr).front()->how + "), is held at both ends";
    } else if (const Access* recheck = Recheck(check, act)) {
      finding.suppressed = true;
      finding.why =
          "suppressed: " + finding.object + " is checked again at line " +
          std::to_string(PointOf((recheck->inner ? recheck->inner : recheck->expr)->getBeginLoc(), context_).line) +
          ", under the lock the act holds";
    } else {
      finding.why = Why(shape, finding.object, at_check, at_act);
      if (act.kind == AccessKind::kCompareExchange) {
        finding.why += "; the act's " + act.method + " would catch that, but its result is ignored, so a caller " +
                       "that loses it goes on as if it had won";
        finding.repair = "use the " + act.method + " result: retry (re-checking) or give up when it fails";
      }
    }
    finding.insertion = GatePlacement(body_, context_, locks_, parents_).For(quoted_check, act_statement, finding.gate);
    if (!finding.insertion.existing_gate.empty()) finding.gate = finding.insertion.existing_gate;
    if (!finding.suppressed && at_check.empty() && !at_act.empty()) {
      finding.repair = "check " + finding.object + " again under " + at_act.front()->mutex +
                       " before acting (double-checked locking; the first check then needs an atomic)";
    }
    for (const LockScope* scope : at_act) {
      if (!finding.suppressed && scope->how.rfind("re-taken by", 0) == 0) {
        finding.repair = "wait in a loop that re-tests the condition: while (...) wait(lock), or wait(lock, predicate)";
        finding.insertion.possible = false;
        finding.insertion.not_possible_because =
            "the window is inside the wait, which a gate cannot hold: explore it, or loop on the condition";
      }
    }
    if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function_); method && !method->isStatic()) {
      finding.class_name = method->getParent()->getNameAsString();
    }
    finding.function_name = function_->getNameAsString();
    finding.call_arguments = CallArguments();
    findings.push_back(std::move(finding));
  }

  void FromIf(const clang::IfStmt* branch, std::vector<Finding>& findings) {
    std::vector<Check> checks = ChecksIn(branch->getCond(), branch);
    // `if (Client* client = client_.load())`: the declaration says what is checked.
    if (const clang::DeclStmt* declaration = branch->getConditionVariableDeclStmt()) {
      for (Check& check : checks) {
        if (check.quoted == branch->getCond()) check.quoted = declaration;
      }
    }
    if (checks.empty()) return;
    std::vector<Access> guarded;
    std::vector<const clang::Stmt*> statements;
    for (const clang::Stmt* stmt : GuardedBy(branch)) {
      for (Access& access : accesses_.In(stmt)) {
        guarded.push_back(std::move(access));
        statements.push_back(stmt);
      }
    }
    std::set<const clang::ValueDecl*> done;
    for (const Check& check : checks) {
      if (!done.insert(check.access.object).second) continue;
      // A second if on the same local (`if (claimed) ...; if (!claimed) return;`)
      // is the same check: one window per check.
      if (!reported_checks_.insert(check.access.expr).second) continue;
      for (std::size_t i = 0; i < guarded.size(); ++i) {
        const Access& act = guarded[i];
        if (act.object != check.access.object) continue;
        // A compare-exchange checks again in the same atomic step, unless
        // its answer is thrown away outside a retry loop (inside one, an
        // ignored CAS is the lock-free "help it along" idiom: the loop reads
        // again, as xenium's kirsch_bounded_kfifo_queue does).
        const bool ignored_exchange = act.kind == AccessKind::kCompareExchange && ResultIgnored(act.expr) &&
                                      !InsideLoop(act.expr);
        if (act.kind == AccessKind::kCompareExchange && !ignored_exchange) break;
        if (!IsAct(act.kind) && !ignored_exchange) continue;
        if (!check.access.key.empty() && !act.key.empty() && check.access.key != act.key) continue;
        reported_acts_.insert(act.expr);
        Report(ShapeOf(check.access, act), check.access, check.quoted, act, StatementOf(act.expr), findings);
        break;
      }
    }
  }

  // `in_use_.compare_exchange_strong(seen, seen + 1);` as a statement of its
  // own (or cast to void): nobody learns whether it won.
  bool ResultIgnored(const clang::Stmt* expr) const {
    const clang::Stmt* current = expr;
    while (const clang::Stmt* parent = parents_.getParent(current)) {
      if (llvm::isa<clang::ExprWithCleanups>(parent) || llvm::isa<clang::ParenExpr>(parent) ||
          llvm::isa<clang::ImplicitCastExpr>(parent) || llvm::isa<clang::CXXBindTemporaryExpr>(parent)) {
        current = parent;
        continue;
      }
      if (const auto* cast = llvm::dyn_cast<clang::CStyleCastExpr>(parent)) return cast->getType()->isVoidType();
      if (llvm::isa<clang::CompoundStmt>(parent)) return true;
      if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(parent)) {
        return branch->getThen() == current || branch->getElse() == current;
      }
      return false;
    }
    return false;
  }

  bool InsideLoop(const clang::Stmt* stmt) const {
    for (const clang::Stmt* parent = parents_.getParent(stmt); parent != nullptr; parent = parents_.getParent(parent)) {
      if (IsLoop(parent)) return true;
    }
    return false;
  }

  // The innermost statement of a block that holds `expr`.
  const clang::Stmt* StatementOf(const clang::Stmt* expr) const {
    const clang::Stmt* current = expr;
    while (current != nullptr && current != body_) {
      const clang::Stmt* parent = parents_.getParent(current);
      if (parent == nullptr || llvm::isa<clang::CompoundStmt>(parent)) return current;
      if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(parent);
          branch && (branch->getThen() == current || branch->getElse() == current)) {
        return current;
      }
      current = parent;
    }
    return expr;
  }

  void LocalDeclarations(const clang::Stmt* stmt,
                         std::vector<std::pair<const clang::VarDecl*, const clang::Stmt*>>& out) {
    if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return;
    if (const auto* declarations = llvm::dyn_cast<clang::DeclStmt>(stmt)) {
      for (const clang::Decl* declaration : declarations->decls()) {
        const auto* variable = llvm::dyn_cast<clang::VarDecl>(declaration);
        if (variable != nullptr && variable->hasLocalStorage() && variable->getInit() != nullptr) {
          out.push_back({variable, variable->getInit()});
        }
      }
    }
    if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(stmt);
        binary && binary->getOpcode() == clang::BO_Assign) {
      if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(binary->getLHS()->IgnoreParenImpCasts())) {
        const auto* variable = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
        if (variable != nullptr && variable->hasLocalStorage()) out.push_back({variable, binary->getRHS()});
      }
    }
    for (const clang::Stmt* child : stmt->children()) LocalDeclarations(child, out);
  }

  bool Mentions(const clang::Stmt* stmt, const clang::VarDecl* variable) const {
    if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return false;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt); ref && ref->getDecl() == variable) return true;
    for (const clang::Stmt* child : stmt->children()) {
      if (Mentions(child, variable)) return true;
    }
    return false;
  }

  void Leaves(const clang::Stmt* stmt, std::vector<const clang::Stmt*>& out) const {
    if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return;
    if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(stmt)) {
      for (const clang::Stmt* child : block->body()) {
        if (llvm::isa<clang::CompoundStmt>(child) || llvm::isa<clang::IfStmt>(child) || IsLoop(child) ||
            llvm::isa<clang::SwitchStmt>(child) || llvm::isa<clang::CXXTryStmt>(child)) {
          Leaves(child, out);
        } else {
          out.push_back(child);
        }
      }
      return;
    }
    for (const clang::Stmt* child : stmt->children()) Leaves(child, out);
  }

  // A local that copies X, written back into X by a later statement that
  // uses it: `index = size_;` ... `publish(index, entry);` (which sets size_).
  void FromLocalCopies(std::vector<Finding>& findings) {
    std::vector<std::pair<const clang::VarDecl*, const clang::Stmt*>> copies;
    LocalDeclarations(body_, copies);
    std::vector<const clang::Stmt*> statements;
    Leaves(body_, statements);
    for (const auto& [local, source] : copies) {
      for (const Access& read : accesses_.In(source)) {
        if (!IsCheck(read.kind)) continue;
        bool reported = false;
        for (const clang::Stmt* statement : statements) {
          if (Begin(statement) <= End(source) || !Mentions(statement, local)) continue;
          for (const Access& act : accesses_.In(statement)) {
            if (act.object != read.object) continue;
            if (act.kind == AccessKind::kCompareExchange) {
              reported = true;
              break;
            }
            if (!IsAct(act.kind)) continue;
            if (!reported_acts_.insert(act.expr).second) {
              reported = true;
              break;
            }
            Report(Shape::kSplitSection, read, source, act, StatementOf(act.expr), findings);
            reported = true;
            break;
          }
          if (reported) break;
        }
        if (reported) break;
      }
    }
  }

  void FileCalls(const clang::Stmt* stmt, std::vector<const clang::CallExpr*>& out) const {
    if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) out.push_back(call);
    for (const clang::Stmt* child : stmt->children()) FileCalls(child, out);
  }

  std::string PathArgument(const clang::CallExpr* call, unsigned index) const {
    if (call->getNumArgs() <= index) return "";
    std::string path = QuoteStmt(call->getArg(index), context_, 200);
    for (const char* suffix : {".c_str()", ".data()"}) {
      const std::size_t length = std::strlen(suffix);
      if (path.size() > length && path.compare(path.size() - length, length, suffix) == 0) {
        path.resize(path.size() - length);
      }
    }
    return path;
  }

  // access()/stat() of a path, then a use of the same path.
  void FromFileChecks(std::vector<Finding>& findings) {
    std::vector<const clang::CallExpr*> calls;
    FileCalls(body_, calls);
    auto name_of = [](const clang::CallExpr* call) -> std::string {
      const clang::FunctionDecl* callee = call->getDirectCallee();
      return callee != nullptr ? callee->getQualifiedNameAsString() : "";
    };
    const std::set<std::string> checks = {"access", "stat", "lstat", "stat64", "lstat64", "euidaccess",
                                          "eaccess", "std::filesystem::exists", "std::filesystem::is_regular_file",
                                          "std::filesystem::status"};
    const std::set<std::string> uses = {"open",   "open64", "fopen",  "fopen64", "creat",  "rename", "remove",
                                        "unlink", "chmod",  "chown",  "truncate", "mkfifo", "link",   "symlink",
                                        "std::filesystem::remove", "std::filesystem::rename",
                                        "std::filesystem::copy_file", "std::filesystem::create_directory"};
    for (const clang::CallExpr* check : calls) {
      const std::string check_name = name_of(check);
      if (checks.count(check_name) == 0 && checks.count(check_name.substr(check_name.rfind(':') + 1)) == 0) continue;
      if (check_name.find("std::") != 0 && check_name.find("::") != std::string::npos) continue;
      const std::string path = PathArgument(check, 0);
      if (path.empty()) continue;
      for (const clang::CallExpr* use : calls) {
        const std::string use_name = name_of(use);
        if (Begin(use) <= End(check) || uses.count(use_name) == 0) continue;
        const bool two_paths = use_name == "rename" || use_name == "std::filesystem::rename" || use_name == "link" ||
                               use_name == "symlink" || use_name == "std::filesystem::copy_file";
        if (PathArgument(use, 0) != path && !(two_paths && PathArgument(use, 1) == path)) continue;
        Finding finding;
        finding.shape = Shape::kFileTimeOfCheck;
        finding.object = path;
        finding.check.at = PointOf(check->getBeginLoc(), context_);
        finding.check.text = QuoteStmt(check, context_);
        finding.act.at = PointOf(use->getBeginLoc(), context_);
        finding.act.text = QuoteStmt(use, context_);
        finding.check.locks = LockState::Describe(locks_.HeldAt(check));
        finding.act.locks = LockState::Describe(locks_.HeldAt(use));
        finding.repair = RepairFor(Shape::kFileTimeOfCheck);
        std::string owner = FileStem(finding.check.at.file);
        if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function_)) {
          owner = method->getParent()->getNameAsString();
          if (!method->isStatic()) finding.class_name = owner;
        }
        finding.gate = GateName(owner, path);
        if (locks_.ShareAScope(check, use)) {
          finding.suppressed = true;
          finding.why = "suppressed: one lock scope is held at both ends (another process is not stopped by it, "
                        "but this program's threads are)";
        } else {
          finding.why = "the file at " + path + " can be replaced, removed or made a symbolic link between the " +
                        "check and the use: the use acts on a file the check never saw";
        }
        finding.insertion = GatePlacement(body_, context_, locks_, parents_).For(check, StatementOf(use), finding.gate);
        finding.function_name = function_->getNameAsString();
        finding.call_arguments = CallArguments();
        findings.push_back(std::move(finding));
        break;
      }
    }
  }

  const clang::FunctionDecl* function_;
  const clang::Stmt* body_;
  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  AccessCollector accesses_;
  LockState locks_;
  clang::ParentMap parents_;
  std::vector<const clang::IfStmt*> ifs_;
  std::vector<Access> rechecks_;
  std::set<const clang::Expr*> reported_acts_;
  std::set<const clang::Expr*> reported_checks_;
};

}  // namespace

void FindWindows(const clang::FunctionDecl* function, clang::ASTContext& context, const SharedObjects& shared,
                 std::vector<Finding>& findings) {
  if (!function->hasBody() || function->getBody() == nullptr) return;
  // No other thread can see the object before its constructor returns or
  // after its destructor starts.
  if (llvm::isa<clang::CXXConstructorDecl>(function) || llvm::isa<clang::CXXDestructorDecl>(function)) return;
  // A private or protected method runs under whatever its callers hold; its
  // accesses are seen, with its locks, through their calls (accesses.h).
  if (function->getAccess() == clang::AS_private || function->getAccess() == clang::AS_protected) return;
  FunctionWindows(function, context, shared).Find(findings);
}

}  // namespace gate_finder
