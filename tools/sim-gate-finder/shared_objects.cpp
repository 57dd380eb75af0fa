// shared_objects.cpp: the "plausibly shared" filter (shared_objects.h).
#include "shared_objects.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace gate_finder {
namespace {

bool TypeNameHas(clang::QualType type, std::initializer_list<const char*> words) {
  const std::string name = type.getCanonicalType().getAsString() + " " + type.getAsString();
  for (const char* word : words) {
    if (name.find(word) != std::string::npos) return true;
  }
  return false;
}

bool IsSynchronisationObject(clang::QualType type) {
  return TypeNameHas(type, {"mutex", "Mutex", "condition_variable", "once_flag", "SpinLock", "semaphore", "latch",
                            "barrier", "std::thread", "std::jthread"});
}

// A lock in the class says its plain fields are shared and guarded. An
// atomic member says less: in lock-free code the plain fields beside the
// atomics are mostly the owning thread's own (moodycamel's pr_* producer
// fields, an iterator's position), and counting them made most of the
// findings on the third-party headers false (docs/gate-finder.md).
bool HasLockMember(const clang::RecordDecl* record) {
  for (const clang::FieldDecl* field : record->fields()) {
    if (TypeNameHas(field->getType(), {"mutex", "Mutex", "condition_variable", "SpinLock", "semaphore"})) return true;
  }
  return false;
}

}  // namespace

bool SharedObjects::IsAtomic(const clang::ValueDecl* object) {
  return TypeNameHas(object->getType(), {"atomic", "_Atomic"});
}

const clang::CXXRecordDecl* SharedObjects::Owner(const clang::ValueDecl* object) {
  return llvm::dyn_cast<clang::CXXRecordDecl>(object->getDeclContext());
}

std::string SharedObjects::QualifiedName(const clang::ValueDecl* object) {
  if (const clang::CXXRecordDecl* owner = Owner(object)) {
    return owner->getNameAsString() + "::" + object->getNameAsString();
  }
  return object->getQualifiedNameAsString();
}

const clang::ValueDecl* SharedObjects::Named(const clang::Expr* expr) const {
  if (expr == nullptr) return nullptr;
  expr = expr->IgnoreParenImpCasts();
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    const clang::Expr* base = member->getBase()->IgnoreParenImpCasts();
    if (llvm::isa<clang::CXXThisExpr>(base)) {
      const auto* field = llvm::dyn_cast<clang::ValueDecl>(member->getMemberDecl());
      return field != nullptr && IsShared(field) ? field : nullptr;
    }
    // A member of a shared object by value (`stats_.hits`) is part of it;
    // through a pointer (`inbox_->messages`) it is another object.
    if (!member->isArrow()) return Named(base);
    return nullptr;
  }
  if (const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr)) return Named(element->getBase());
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    return var != nullptr && IsShared(var) ? var : nullptr;
  }
  return nullptr;
}

bool SharedObjects::IsShared(const clang::ValueDecl* object) const {
  const clang::QualType type = object->getType();
  if (type.isConstQualified() || IsSynchronisationObject(type)) return false;
  if (const auto* var = llvm::dyn_cast<clang::VarDecl>(object)) {
    if (var->isConstexpr() || var->getTLSKind() != clang::VarDecl::TLS_None) return false;
    return var->hasGlobalStorage();
  }
  const auto* field = llvm::dyn_cast<clang::FieldDecl>(object);
  if (field == nullptr) return false;
  const clang::RecordDecl* record = field->getParent();
  if (const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(record); cxx != nullptr && cxx->isLambda()) return false;
  return IsAtomic(field) || HasLockMember(record) || unit_starts_threads_;
}

}  // namespace gate_finder
