// story.h: the preemptions of an execution, told in source terms.
//
// The report's story is what a reader checks a bug against: who was
// preempted where, what ran instead, where the preempted thread resumed.
// Every line must be true of the execution, for a shrunk schedule of one
// preemption and for an unshrunk one of hundreds alike, so the story is
// told in the order things happened: each preemption opens a segment that
// ends where the next one begins, and what a thread ran is summed up only
// within a segment (it cannot "run to completion" there and be preempted in
// a later line). The world keeps the trace and the preemptions; this file
// only reads them.
#ifndef SIM_RUNTIME_STORY_H_
#define SIM_RUNTIME_STORY_H_

#include <cstddef>
#include <string>
#include <vector>

#include "core/trace.h"
#include "strategy/strategy.h"

namespace sim::internal {

// A switch away from a thread that could have gone on, at the event the
// preempted thread had just reached (its index in the whole trace).
struct Preemption {
  std::uint64_t event_index;
  ThreadId preempted;
  ThreadId switched_to;
};

// The story of `events` (the whole trace) with `preemptions` in it, one line
// per segment: `T1 a.cpp:30 lock   <- preempted`, `T2 a.cpp:23-38 runs`
// (`runs to completion` when it exited), `T1 a.cpp:30 resumes (lock)` (it
// carries out what it was preempted before), `T1 does not run again before
// the end`, and `... and N more preemptions` past the first kMaxTold.
std::vector<std::string> TellStory(const std::vector<Event>& events, const std::vector<Preemption>& preemptions);

inline constexpr std::size_t kMaxPreemptionsTold = 8;

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STORY_H_
