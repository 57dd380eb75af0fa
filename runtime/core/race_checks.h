// race_checks.h: what the race detector (races=1) takes from code the pass
// did not instrument: a shared library built without sim-clang++ (abseil's
// Mutex, oneTBB's scheduler, liburcu's grace periods and libcds' hazard
// pointers synchronise inside theirs, with atomics no hook sees).
//
// A call from instrumented code into such a library or into inline
// assembly (liburcu's atomics are written in it), and everything a
// thread does while inside one (the instrumented callbacks it runs, its
// scheduling points), is taken to release all the thread knows to, and
// acquire all that was released to, one clock shared by every such
// library, and the clocks of the objects the call's first two pointer
// arguments name (an exchange's location: liburcu's rcu_xchg_pointer is
// such a call, and its readers' rcu_dereference an atomic load there). So
// a thread that takes an abseil Mutex after another released it knows
// what the other did before, as it would with a modelled lock;
// the cost is order the libraries may not give (two threads that each
// call into any such library are ordered), which can hide a race between
// them, never invent one. A thread whose start routine is in such a
// library (a oneTBB worker) is inside it from its start. Not seen: a call
// through the executable's PLT when it is not position-independent (the
// address is the executable's), and a call left by an exception.
#ifndef SIM_RUNTIME_CORE_RACE_CHECKS_H_
#define SIM_RUNTIME_CORE_RACE_CHECKS_H_

#include <array>
#include <string>
#include <vector>

#include "core/world.h"
#include "race/race_detector.h"
#include "race/suppressions.h"

namespace sim::internal {

// Around a call from instrumented code to `callee` (the pass's
// __sim_call_begin/__sim_call_end), given the call's first two pointer
// arguments; nothing unless races=1 and `callee` is in an uninstrumented
// library or is inline assembly (null).
using CallArguments = std::array<const void*, 2>;
void CallMayEnterForeignCode(World& world, const void* callee, CallArguments arguments);
void CallMayLeaveForeignCode(World& world, const void* callee, CallArguments arguments);
// The suppressions file options.suppressions names, read at the first call
// (a world's construction, outside it); a file that cannot be read or used
// ends the process with the reason.
const RaceSuppressions& RaceSuppressionsOf(const Options& options);

// The running world's detector, for an interceptor called from a simulated
// thread with races=1; else null (a real thread, or races=0).
inline RaceDetector* RacesInWorld() { return InWorld() ? current_world->races() : nullptr; }

// A race that ended an execution, kept to be told if the execution is
// described: the return addresses walked from the racing access's stack
// (named then, not at the race), and for an access with no site of the
// pass's (a free), the return address into its caller.
struct RaceToTell {
  Race race;
  std::vector<const void*> walked;
  const void* frameless_caller = nullptr;
  std::string sites;  // the message until it is told: the two accesses' lines
};

// The race's pair of sites in either order, by where they are in the
// source (the pass's hash of file and line; a libc call's site, free or
// strerror_r, hashes its name the same way): the same for the same race in every process
// and at any load address, so a shrinking candidate, a flip and a later
// seed of a sweep are compared with the race as found without naming a
// frame.
std::uint64_t RaceSitesKey(const Race& race);

// What a race's SUMMARY line names, as TSan's does: the racing access's
// frame, the text after the message's first "#0 " up to its line's end;
// "" when the message has none.
std::string RacingFrame(const std::string& message);

// A thread created to run `start`.
void ThreadMayStartInForeignCode(World& world, SimThread& thread, const void* start);
// At a scheduling point of a thread inside foreign code: before it (release)
// and after it (acquire).
void ForeignCodeEdge(World& world, bool after_point);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_RACE_CHECKS_H_
