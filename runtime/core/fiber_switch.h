// fiber_switch.h: the stack switch between simulated threads (x86-64 SysV).
//
// Stacks come from stack_pool.h, as before. This file replaces the two
// routines the runtime took from Boost.Context (make_fcontext and
// jump_fcontext), because Boost 1.74's jump_fcontext returns to the resumed
// fiber with `jmp *%r8` instead of `ret`, so every `call` into it
// leaves a return-stack-buffer entry that is never popped, and each return on
// the way back to the user's code (the scheduling point, the hook) then
// mispredicts. sim_switch_stacks ends in `ret`: the call that
// suspended a fiber is the one that returns when it resumes, so the CPU's
// return predictions stay paired. docs/performance.md has the measurements.
//
// What is saved is what the ABI says a callee keeps: rbx, rbp, r12-r15, the
// stack pointer, MXCSR and the x87 control word (a thread's rounding mode
// and SSE flags are its own, as on real threads and under jump_fcontext).
#ifndef SIM_RUNTIME_FIBER_SWITCH_H_
#define SIM_RUNTIME_FIBER_SWITCH_H_

#include <cstddef>

namespace sim::internal {

// A suspended fiber: its saved stack pointer, or null when it has none yet.
using FiberStackPointer = void*;

// Lays out a fiber at the top of [stack_lowest, stack_lowest + size) that
// runs `entry` (which must never return) the first time it is switched to,
// with the MXCSR and x87 control word of the calling thread.
FiberStackPointer MakeFiber(char* stack_lowest, std::size_t size, void (*entry)());

}  // namespace sim::internal

extern "C" {
// Saves the running fiber's callee-saved state on its stack, stores its stack
// pointer in *save, and resumes the fiber suspended at `resume`; returns when
// another sim_switch_stacks resumes *save. Defined in fiber_switch.cpp.
void sim_switch_stacks(sim::internal::FiberStackPointer* save, sim::internal::FiberStackPointer resume);
}

#endif  // SIM_RUNTIME_FIBER_SWITCH_H_
