// process_notices.h: what the runtime says once per process that sim-run
// passes on, since sim-run shows a child's stderr only when its seed fails.
#ifndef SIM_COMMON_PROCESS_NOTICES_H_
#define SIM_COMMON_PROCESS_NOTICES_H_

#include <string_view>

namespace sim::common {

// How the notice that every switch makes a system call begins
// (runtime/core/thread_local_switch.cpp); the rest of its line says the cost
// measured and what is in the way.
inline constexpr std::string_view kSyscallPerSwitchNotice =
    "simthread: every switch between simulated threads makes a system call here";

}  // namespace sim::common

#endif  // SIM_COMMON_PROCESS_NOTICES_H_
