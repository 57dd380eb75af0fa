// transition.h: one step of an execution, from a scheduling point of the
// thread that takes it to that thread's next one, and what it touches: what
// partial-order reduction needs to tell which steps commute.
#ifndef SIM_RUNTIME_TRANSITION_H_
#define SIM_RUNTIME_TRANSITION_H_

#include <cstdint>

namespace sim::internal {

using ThreadId = std::uint32_t;

// What a step touches. Known for a step that is one instrumented access or
// atomic within one 8-byte word, or an operation on a lock or a condition
// variable (the word at its address stands for its model): what the thread announced at the
// point the step starts from, and then only its own registers and memory no
// other thread reaches until its next point, except that a release (an
// unlock, a post) acts before its own point, in the step before it, which
// then touches the released object's word too; a waiter woken from a
// condition variable takes its mutex back. Every other step (what a thread
// does once woken from any other wait, creating or joining a thread, a wide
// or unaligned access, a fence) may touch anything; a thread's first step,
// only a word of its own.
// The 8-byte word an address lies in, as footprints name it.
inline std::uintptr_t WordOf(const void* address) { return reinterpret_cast<std::uintptr_t>(address) >> 3; }

struct Footprint {
  std::uintptr_t word = 0;  // the address divided by 8
  bool writes = true;
  bool known = false;
  std::uintptr_t released = 0;  // the word of an object released in the step (written); 0: none
};

// Two steps may not commute when they touch a word in common and one of
// them writes it (a released object's word counts as written), or either
// may touch anything: race_reversal.cpp orders steps by that.

inline constexpr ThreadId kNoThread = UINT32_MAX;

struct Transition {
  ThreadId thread = 0;
  Footprint footprint;
  // The thread this step created, whose steps all come after it; kNoThread
  // when none.
  ThreadId spawned = kNoThread;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_TRANSITION_H_
