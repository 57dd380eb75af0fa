// runtime_code.h: whether a code address is the runtime's own.
//
// A report names the user's frames and stops where they end; the runtime's
// own frames (the race check above a racing access, the thread entry below
// a thread's function) only mark where. Each runtime archive's code lies
// between two symbols of its own (runtime/link/mark_code_range.sh) and
// registers that range at static initialisation, so that a frame in it is
// known for the runtime's without asking the symbolizer, which would load
// the runtime's debug information to say so.
#ifndef SIM_RUNTIME_CORE_RUNTIME_CODE_H_
#define SIM_RUNTIME_CORE_RUNTIME_CODE_H_

namespace sim::internal {

// Whether `address` lies in a registered archive's code.
bool IsRuntimeCode(const void* address);

// Called by SIM_REGISTER_RUNTIME_CODE; a null range (the archive was not
// marked) registers nothing.
void RegisterRuntimeCode(const char* begin, const char* end);

}  // namespace sim::internal

// In one source file of each marked archive, at namespace scope: registers
// that archive's code, __sim_code_begin_<name> to __sim_code_end_<name>.
// Weak: an archive built without the marking step still links.
#define SIM_REGISTER_RUNTIME_CODE(name)                                                          \
  extern "C" char __sim_code_begin_##name[] __attribute__((weak, visibility("hidden")));        \
  extern "C" char __sim_code_end_##name[] __attribute__((weak, visibility("hidden")));          \
  [[gnu::constructor]] static void SimRegisterRuntimeCode_##name() {                            \
    ::sim::internal::RegisterRuntimeCode(__sim_code_begin_##name, __sim_code_end_##name);       \
  }

#endif  // SIM_RUNTIME_CORE_RUNTIME_CODE_H_
