// check.h: how the runtime stops when it cannot go on.
//
// One way out for every fault of the runtime itself, whatever the caller:
// Die() names the problem (and the fix, when there is one) on stderr and
// ends the process with a status from common/exit_status.h. It writes with
// write(2) and leaves with _exit, since it may be called with stdio's lock
// held, on a fiber with a borrowed FS base, or while resolving the very libc
// function stdio needs; and it never calls abort(), which inside a world is
// the user's abort and would be reported as a crash of their program.
//
// SIM_CHECK(condition, message) states an invariant of the runtime, and
// SIM_UNREACHABLE(message) marks where control never comes back to; when
// one fails, the process dies as an internal error naming the file and line.
#ifndef SIM_RUNTIME_CORE_CHECK_H_
#define SIM_RUNTIME_CORE_CHECK_H_

#include <initializer_list>
#include <string_view>

#include "common/exit_status.h"

namespace sim::internal {

// Writes "simthread: " and the parts, then a newline, to stderr, and exits
// with `status`. The parts are concatenated as given (no allocation).
[[noreturn, gnu::cold]] void Die(int status, std::initializer_list<std::string_view> parts);

// `what_failed`: the condition's text, or null for an unreachable line.
[[noreturn, gnu::cold]] void DieOnFailedCheck(const char* what_failed, const char* message, const char* file, int line);

}  // namespace sim::internal

#define SIM_CHECK(condition, message)                                             \
  do {                                                                            \
    if (!(condition)) [[unlikely]] {                                              \
      ::sim::internal::DieOnFailedCheck(#condition, message, __FILE__, __LINE__); \
    }                                                                             \
  } while (false)
#define SIM_UNREACHABLE(message) ::sim::internal::DieOnFailedCheck(nullptr, message, __FILE__, __LINE__)

#endif  // SIM_RUNTIME_CORE_CHECK_H_
