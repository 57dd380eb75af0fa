// accesses.h: what a statement does to shared objects, seen through calls to
// the same class's methods.
//
// A check reads (kRead) or queries (kQuery: find, count, empty, load, ...)
// an object; an act writes it (kWrite: =, ++, store, reset), mutates a
// container (kMutate: insert, operator[] =, erase, pop, ...) or does an
// atomic read-modify-write (kAtomicRmw: fetch_add, ...). A compare-exchange
// (kCompareExchange, also exchange and test_and_set) checks and acts in one
// step, so it is never a window's act. A call of any other method
// (kOtherCall: `store_.set_nx(k, v)`) is neither a check nor an act: what it
// does is not known by its name. Methods are classified by name, which
// covers the standard containers and atomics and the usual names of user
// classes built on them (get/set/put/has).
#ifndef SIM_GATE_FINDER_ACCESSES_H_
#define SIM_GATE_FINDER_ACCESSES_H_

#include <map>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "shared_objects.h"

namespace gate_finder {

enum class AccessKind { kRead, kQuery, kWrite, kMutate, kAtomicRmw, kCompareExchange, kOtherCall };

bool IsCheck(AccessKind kind);
bool IsAct(AccessKind kind);

struct Access {
  const clang::ValueDecl* object = nullptr;
  AccessKind kind = AccessKind::kRead;
  // In the function being analysed: the access itself, or the call to the
  // method of the same class in which it happens.
  const clang::Expr* expr = nullptr;
  std::string method;  // "find", "store", "operator[]", "=", ...; empty for a plain read
  std::string key;     // a container operation's key as written, or empty
  const clang::FunctionDecl* via = nullptr;     // the method it happens in, when through a call
  std::vector<std::string> locks_in_callee;     // mutexes that method holds around it
  const clang::Expr* inner = nullptr;           // the access inside `via`
};

class AccessCollector {
 public:
  AccessCollector(clang::ASTContext& context, const SharedObjects& shared) : context_(context), shared_(shared) {}

  // Every access in `stmt` (not inside lambdas), in source order, with the
  // accesses of methods of the same class that it calls, two calls deep.
  std::vector<Access> In(const clang::Stmt* stmt);

 private:
  void Visit(const clang::Stmt* stmt, std::vector<Access>& out, int depth);
  void Record(const clang::ValueDecl* object, AccessKind kind, const clang::Expr* expr, std::string method,
              std::string key, std::vector<Access>& out);
  void ThroughCall(const clang::CallExpr* call, const clang::FunctionDecl* callee, std::vector<Access>& out,
                   int depth);
  const std::vector<Access>& Summary(const clang::FunctionDecl* callee, int depth);

  clang::ASTContext& context_;
  const SharedObjects& shared_;
  std::map<const clang::FunctionDecl*, std::vector<Access>> summaries_;
};

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_ACCESSES_H_
