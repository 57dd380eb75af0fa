// keys.h: what the world needs from the pthread key interceptors.
#ifndef SIM_RUNTIME_INTERCEPTORS_KEYS_H_
#define SIM_RUNTIME_INTERCEPTORS_KEYS_H_

namespace sim::internal {

// Runs the destructors of the running simulated thread's non-null pthread
// key values, as glibc does at thread exit (up to
// PTHREAD_DESTRUCTOR_ITERATIONS rounds).
void RunPthreadKeyDestructors();

// Clears every key value a previous borrower of the running thread's TCB may
// have left (an abandoned thread runs no destructors).
void ClearPthreadKeyValues();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_INTERCEPTORS_KEYS_H_
