// instrumented.cpp: was this executable built with sim-clang++?
//
// Every module the pass instruments defines __sim_instrumented (a weak
// constant 1). This file includes no simthread header, so the declaration
// below is the only one in its translation unit and can be weak: without an
// instrumented module the symbol stays undefined and its address is null.
extern "C" const unsigned char __sim_instrumented __attribute__((weak));

namespace sim::internal {

bool ExecutableIsInstrumented() { return &__sim_instrumented != nullptr; }

}  // namespace sim::internal
