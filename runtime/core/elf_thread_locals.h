// elf_thread_locals.h: the thread-local variables an ELF file defines, read
// from its symbol table.
//
// How the runtime finds thread-locals that were not built with the pass: the
// pass registers each one it compiles (__sim_register_thread_local), and any
// other thread-local symbol of the module is code it never saw.
#ifndef SIM_RUNTIME_CORE_ELF_THREAD_LOCALS_H_
#define SIM_RUNTIME_CORE_ELF_THREAD_LOCALS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sim::internal {

struct ElfThreadLocal {
  std::size_t offset_in_segment;  // st_value: from the start of the PT_TLS image
  std::size_t size;
  std::string name;  // as in the symbol table (mangled)
};

// Every defined STT_TLS symbol of nonzero size in the file at `path`, from
// its full symbol table (.symtab); nullopt when the file cannot be read or
// is stripped, since .dynsym lists only the exported thread-locals and a
// module's static ones would go unseen.
std::optional<std::vector<ElfThreadLocal>> ReadElfThreadLocals(const char* path);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_ELF_THREAD_LOCALS_H_
