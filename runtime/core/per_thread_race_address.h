// per_thread_race_address.h: where the race detector keys an access to a
// word that tls_switch=lazy keeps in one place for every simulated thread.
//
// Lazy mode leaves libc's and libstdc++'s thread-locals (the census's pinned
// blocks: errno, the locale, the exception globals, strerror's buffer) on
// the installed block, and carries each thread's words in and out at its
// switches (thread_local_switch.h). Natively each thread has its own, so the
// detector keys them at the running thread's own block, the same distance
// below its thread pointer as an eager mode has them: each mode then shows
// the detector the same locations. The world asks this for every access on
// its way to the detector (World::CheckAccessForRace), and nothing else.
#ifndef SIM_RUNTIME_CORE_PER_THREAD_RACE_ADDRESS_H_
#define SIM_RUNTIME_CORE_PER_THREAD_RACE_ADDRESS_H_

#include <cstdint>

#include "core/thread_control_block.h"

namespace sim::internal {

class PerThreadRaceAddress {
 public:
  // For an execution: `installed` is the block the FS base stays on, and
  // `lazy` whether lazy mode runs (else every address is its own key).
  void Reset(bool lazy, ThreadPointer installed);

  // The detector's key for an access to `object` by the thread whose block
  // is `running`.
  [[gnu::always_inline]] const void* Of(const void* object, ThreadPointer running) const {
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(object);
    if (address - begin_ < length_) [[unlikely]]
      return InRunningThreadsBlock(address, running);
    return object;
  }

 private:
  [[gnu::noinline]] const void* InRunningThreadsBlock(std::uintptr_t address, ThreadPointer running) const;

  // The installed block's pinned thread-locals, from the lowest pinned
  // block's first byte to the highest's last (an instrumented module's block
  // may lie between: InRunningThreadsBlock checks each); empty unless lazy.
  std::uintptr_t begin_ = 0;
  std::uintptr_t length_ = 0;
  ThreadPointer installed_ = nullptr;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_PER_THREAD_RACE_ADDRESS_H_
