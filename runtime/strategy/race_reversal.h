// race_reversal.h: dynamic partial-order reduction for the bounded search.
//
// Flanagan and Godefroid, "Dynamic Partial-Order Reduction for Model
// Checking Software", POPL 2005: after an execution, each step is checked
// against the latest earlier step of another thread that it depends on
// (transition.h) and that is not already ordered before it through other
// dependent steps (a race); the search must also try, at the choice point
// where that earlier step began, the thread of the later one (or, when that
// thread could not run there, every thread that could), since running it
// first may give a different result. Choices no race asks for lead only to
// reorderings of commuting steps, which end the same way, and are skipped.
//
// Under a preemption bound, the reversal the race asks for may cost a
// preemption the bound forbids, where another schedule of the same
// reordering would not: Coons, Musuvathi and McKinley, "Bounded Partial-Order
// Reduction", OOPSLA 2013, add the same thread at a second, conservative
// point, where the run of steps before the racing one began (a context
// switch, so switching there costs no extra preemption). Without it the
// reduced search would miss schedules within the bound.
//
// Departures: happens-before is computed from the executed steps only (the
// races of the execution, as in Abdulla et al.'s source-DPOR), plus, for
// each thread that had not finished, the step it was about to take. No sleep
// sets (unsound under a preemption bound, as Coons et al. show).
#ifndef SIM_RUNTIME_RACE_REVERSAL_H_
#define SIM_RUNTIME_RACE_REVERSAL_H_

#include <span>
#include <vector>

#include "strategy/strategy.h"
#include "strategy/transition.h"

namespace sim::internal {

// Adds to each of `choices` (in execution order, each with its `transition`
// index) the threads its race reversals need, in ChoiceRecord::also_try.
void FindRaceReversals(std::span<const Transition> transitions, std::vector<ChoiceRecord>& choices);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_REVERSAL_H_
