// libc_binding.h: the runtime's calls to libc, bound past the user's
// definitions of the same names (libc_binding.cpp says how).
#ifndef SIM_RUNTIME_LIBC_BINDING_H_
#define SIM_RUNTIME_LIBC_BINDING_H_

namespace sim::internal {

// Binds every one of the runtime's calls to libc now rather than at its
// first call. A fork server does this once, so that each child it forks
// does not look the same names up again (3% of a shrinking candidate's
// time on a 2-core VM). A lookup that finds its name allocates
// nothing, so the program's heap stays as a spawned process's.
void BindLibcSymbolsAhead();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_LIBC_BINDING_H_
