// shared_objects.h: which objects another thread can see, by declaration.
//
// The finder reports a window only on an object that is plausibly shared
// (RacerD's trigger idea: evidence of concurrency near the object), because
// a check-then-act on a local is no window at all:
//   - a namespace-scope, static member or function-local static variable;
//   - an atomic field, or any field of a class that has a mutex or
//     condition-variable member;
//   - any other field, when the translation unit starts threads (std::thread,
//     std::jthread, std::async, pthread_create).
// Never shared: locals and parameters, thread_local variables, const objects
// (nobody acts on them), and the synchronisation objects themselves.
#ifndef SIM_GATE_FINDER_SHARED_OBJECTS_H_
#define SIM_GATE_FINDER_SHARED_OBJECTS_H_

#include <string>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace gate_finder {

class SharedObjects {
 public:
  explicit SharedObjects(bool unit_starts_threads) : unit_starts_threads_(unit_starts_threads) {}

  // The shared object `expr` names: `field_` or `this->field_` (or an element
  // or member of one), or a shared variable; null for anything else.
  const clang::ValueDecl* Named(const clang::Expr* expr) const;
  bool IsShared(const clang::ValueDecl* object) const;

  static bool IsAtomic(const clang::ValueDecl* object);
  // "Database::pool_", or the variable's qualified name.
  static std::string QualifiedName(const clang::ValueDecl* object);
  // The class whose member it is, or empty for a variable outside classes.
  static const clang::CXXRecordDecl* Owner(const clang::ValueDecl* object);

 private:
  bool unit_starts_threads_;
};

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_SHARED_OBJECTS_H_
