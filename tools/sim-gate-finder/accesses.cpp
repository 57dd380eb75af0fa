// accesses.cpp: classifying reads, checks and acts (accesses.h).
#include "accesses.h"

#include <algorithm>
#include <optional>

#include "clang/AST/ExprCXX.h"
#include "lock_state.h"
#include "source_text.h"

namespace gate_finder {
namespace {

bool In(const std::string& name, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* candidate) { return name == candidate; });
}

AccessKind KindOfMethod(const std::string& method) {
  if (In(method, {"compare_exchange_weak", "compare_exchange_strong", "exchange", "test_and_set"})) {
    return AccessKind::kCompareExchange;
  }
  if (In(method, {"fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor"})) return AccessKind::kAtomicRmw;
  if (In(method, {"store", "reset", "assign"})) return AccessKind::kWrite;
  if (In(method, {"emplace", "insert", "try_emplace", "insert_or_assign", "erase", "push", "push_back", "push_front",
                  "emplace_back", "emplace_front", "emplace_hint", "pop", "pop_back", "pop_front", "clear", "set",
                  "put", "swap", "remove", "extract", "merge", "resize"})) {
    return AccessKind::kMutate;
  }
  if (In(method, {"load", "find", "count", "contains", "empty", "size", "get", "has", "exists", "lookup", "at",
                  "front", "back", "top", "test", "use_count", "expired"})) {
    return AccessKind::kQuery;
  }
  return AccessKind::kOtherCall;
}

bool TakesKey(const std::string& method) {
  return In(method, {"find", "count", "contains", "at", "get", "has", "exists", "lookup", "erase", "insert", "emplace",
                     "try_emplace", "insert_or_assign", "set", "put", "remove", "extract"});
}

struct CalledMember {
  const clang::Expr* object = nullptr;
  std::string method;
  const clang::FunctionDecl* callee = nullptr;
};

std::optional<CalledMember> AsCalledMember(const clang::CallExpr* call) {
  const clang::Expr* callee = call->getCallee()->IgnoreParenImpCasts();
  CalledMember member;
  if (const auto* resolved = llvm::dyn_cast<clang::MemberExpr>(callee)) {
    member.object = resolved->getBase();
    member.method = resolved->getMemberNameInfo().getAsString();
    member.callee = llvm::dyn_cast<clang::FunctionDecl>(resolved->getMemberDecl());
    return member;
  }
  if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(callee)) {
    if (dependent->isImplicitAccess()) return std::nullopt;
    member.object = dependent->getBase();
    member.method = dependent->getMember().getAsString();
    return member;
  }
  if (const auto* unresolved = llvm::dyn_cast<clang::UnresolvedMemberExpr>(callee)) {
    member.object = unresolved->isImplicitAccess() ? nullptr : unresolved->getBase();
    member.method = unresolved->getMemberName().getAsString();
    if (unresolved->getNumDecls() == 1) {
      const clang::NamedDecl* only = *unresolved->decls_begin();
      if (const auto* method = llvm::dyn_cast<clang::FunctionDecl>(only->getUnderlyingDecl())) member.callee = method;
      if (const auto* templated = llvm::dyn_cast<clang::FunctionTemplateDecl>(only->getUnderlyingDecl())) {
        member.callee = templated->getTemplatedDecl();
      }
    }
    return member;
  }
  return std::nullopt;
}

bool IsThis(const clang::Expr* expr) {
  return expr == nullptr || llvm::isa<clang::CXXThisExpr>(expr->IgnoreParenImpCasts());
}

}  // namespace

bool IsCheck(AccessKind kind) { return kind == AccessKind::kRead || kind == AccessKind::kQuery; }

bool IsAct(AccessKind kind) {
  return kind == AccessKind::kWrite || kind == AccessKind::kMutate || kind == AccessKind::kAtomicRmw;
}

std::vector<Access> AccessCollector::In(const clang::Stmt* stmt) {
  std::vector<Access> out;
  Visit(stmt, out, 0);
  return out;
}

void AccessCollector::Record(const clang::ValueDecl* object, AccessKind kind, const clang::Expr* expr,
                             std::string method, std::string key, std::vector<Access>& out) {
  Access access;
  access.object = object;
  access.kind = kind;
  access.expr = expr;
  access.method = std::move(method);
  access.key = std::move(key);
  out.push_back(std::move(access));
}

const std::vector<Access>& AccessCollector::Summary(const clang::FunctionDecl* callee, int depth) {
  if (const auto found = summaries_.find(callee); found != summaries_.end()) return found->second;
  summaries_[callee];  // a recursive call sees an empty summary
  std::vector<Access> accesses;
  if (const clang::Stmt* body = callee->getBody()) {
    Visit(body, accesses, depth);
    LockState locks(body, context_);
    for (Access& access : accesses) {
      for (const LockScope* scope : locks.HeldAt(access.expr)) {
        access.locks_in_callee.push_back(scope->mutex);
      }
    }
  }
  return summaries_[callee] = std::move(accesses);
}

void AccessCollector::ThroughCall(const clang::CallExpr* call, const clang::FunctionDecl* callee,
                                  std::vector<Access>& out, int depth) {
  const clang::FunctionDecl* definition = nullptr;
  if (callee == nullptr || !callee->hasBody(definition) || depth >= 2) return;
  for (const Access& inner : Summary(definition, depth + 1)) {
    Access lifted = inner;
    lifted.expr = call;
    if (lifted.via == nullptr) {
      lifted.via = definition;
      lifted.inner = inner.expr;
    }
    out.push_back(std::move(lifted));
  }
}

void AccessCollector::Visit(const clang::Stmt* stmt, std::vector<Access>& out, int depth) {
  if (stmt == nullptr || llvm::isa<clang::LambdaExpr>(stmt)) return;
  // Both ends of a window are in code that runs: an unevaluated operand
  // (sizeof, decltype) is neither.
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(stmt)) return;

  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(stmt); binary && binary->isAssignmentOp()) {
    const clang::Expr* target = binary->getLHS()->IgnoreParenImpCasts();
    if (const auto* subscript = llvm::dyn_cast<clang::CXXOperatorCallExpr>(target);
        subscript && subscript->getOperator() == clang::OO_Subscript) {
      if (const clang::ValueDecl* object = shared_.Named(subscript->getArg(0))) {
        Record(object, AccessKind::kMutate, binary, "operator[]", QuoteStmt(subscript->getArg(1), context_), out);
        Visit(subscript->getArg(1), out, depth);
        Visit(binary->getRHS(), out, depth);
        return;
      }
    }
    if (const clang::ValueDecl* object = shared_.Named(target)) {
      Visit(binary->getRHS(), out, depth);
      Record(object, AccessKind::kWrite, binary, binary->getOpcodeStr().str(), "", out);
      return;
    }
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(stmt); unary && unary->isIncrementDecrementOp()) {
    if (const clang::ValueDecl* object = shared_.Named(unary->getSubExpr())) {
      Record(object, SharedObjects::IsAtomic(object) ? AccessKind::kAtomicRmw : AccessKind::kWrite, unary,
             unary->getOpcodeStr(unary->getOpcode()).str(), "", out);
      return;
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(stmt)) {
    const clang::OverloadedOperatorKind kind = op->getOperator();
    if (op->isAssignmentOp() && op->getNumArgs() == 2) {
      const clang::Expr* target = op->getArg(0)->IgnoreParenImpCasts();
      if (const auto* subscript = llvm::dyn_cast<clang::CXXOperatorCallExpr>(target);
          subscript && subscript->getOperator() == clang::OO_Subscript) {
        if (const clang::ValueDecl* object = shared_.Named(subscript->getArg(0))) {
          Record(object, AccessKind::kMutate, op, "operator[]", QuoteStmt(subscript->getArg(1), context_), out);
          Visit(subscript->getArg(1), out, depth);
          Visit(op->getArg(1), out, depth);
          return;
        }
      }
      if (const clang::ValueDecl* object = shared_.Named(target)) {
        Visit(op->getArg(1), out, depth);
        const bool compound = kind != clang::OO_Equal;
        Record(object, compound && SharedObjects::IsAtomic(object) ? AccessKind::kAtomicRmw : AccessKind::kWrite, op,
               clang::getOperatorSpelling(kind), "", out);
        return;
      }
    }
    if ((kind == clang::OO_PlusPlus || kind == clang::OO_MinusMinus) && op->getNumArgs() >= 1) {
      if (const clang::ValueDecl* object = shared_.Named(op->getArg(0))) {
        Record(object, SharedObjects::IsAtomic(object) ? AccessKind::kAtomicRmw : AccessKind::kWrite, op,
               clang::getOperatorSpelling(kind), "", out);
        return;
      }
    }
    if (kind == clang::OO_Subscript && op->getNumArgs() == 2) {
      if (const clang::ValueDecl* object = shared_.Named(op->getArg(0))) {
        Record(object, AccessKind::kRead, op, "operator[]", QuoteStmt(op->getArg(1), context_), out);
        Visit(op->getArg(1), out, depth);
        return;
      }
    }
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    if (const std::optional<CalledMember> member = AsCalledMember(call)) {
      if (IsThis(member->object)) {
        for (const clang::Expr* argument : call->arguments()) Visit(argument, out, depth);
        ThroughCall(call, member->callee, out, depth);
        return;
      }
      if (const clang::ValueDecl* object = shared_.Named(member->object)) {
        const AccessKind kind = KindOfMethod(member->method);
        std::string key;
        if (TakesKey(member->method) && call->getNumArgs() > 0) key = QuoteStmt(call->getArg(0), context_);
        Record(object, kind, call, member->method, key, out);
        for (const clang::Expr* argument : call->arguments()) Visit(argument, out, depth);
        return;
      }
    }
  }
  if (const auto* expr = llvm::dyn_cast<clang::Expr>(stmt)) {
    if (llvm::isa<clang::MemberExpr>(expr) || llvm::isa<clang::DeclRefExpr>(expr) ||
        llvm::isa<clang::ArraySubscriptExpr>(expr)) {
      if (const clang::ValueDecl* object = shared_.Named(expr)) {
        Record(object, AccessKind::kRead, expr, "", "", out);
        if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr))
          Visit(subscript->getIdx(), out, depth);
        return;
      }
    }
  }
  for (const clang::Stmt* child : stmt->children()) Visit(child, out, depth);
}

}  // namespace gate_finder
