// race_detector.h: happens-before race detection with vector clocks
// (FastTrack's epochs: Flanagan and Freund, PLDI 2009) over the shadow
// memory, for one execution at a time.
//
// Its caller tells it, in the order the world runs them, every access of
// instrumented code and every edge of synchronisation: a thread's start
// (it knows what its creator knew), a join (the joiner knows what the
// thread knew when it ended), and a release and an acquire on a sync object
// (a mutex, an atomic's location). Two accesses race when they touch a
// common byte, at least one writes, and neither happens before the other.
// Each pair of sites is reported once per execution.
#ifndef SIM_RUNTIME_RACE_RACE_DETECTOR_H_
#define SIM_RUNTIME_RACE_RACE_DETECTOR_H_

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "race/shadow_memory.h"
#include "race/vector_clock.h"

namespace sim::internal {

struct RaceAccess {
  RaceThread thread = 0;
  bool write = false;
  const void* site = nullptr;
};

struct Race {
  std::uintptr_t address = 0;  // the first byte both accesses touched
  RaceAccess current;          // the access that found it
  RaceAccess previous;         // the one it did not happen after
};

class RaceDetector {
 public:
  // A new execution: no history, no threads but `main` (thread 0).
  void Reset();

  // `child` starts knowing what `parent` knew at its creation.
  void ThreadStarted(RaceThread child, RaceThread parent);
  // `joiner` now knows what `joined` knew when it ended.
  void ThreadJoined(RaceThread joiner, RaceThread joined);
  // The edges of a sync object (any address that names one): what `thread`
  // knows now reaches whoever acquires `sync` afterwards.
  void Release(RaceThread thread, const void* sync);
  void Acquire(RaceThread thread, const void* sync);

  // An access of [address, address + size); the first race it makes with
  // an earlier access, if any, not reported before for the same two sites.
  std::optional<Race> Read(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site) {
    return Access(thread, address, size, site, /*write=*/false);
  }
  std::optional<Race> Write(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site) {
    return Access(thread, address, size, site, /*write=*/true);
  }

  // Freed or unmapped memory: a new object there starts without history.
  void Forget(std::uintptr_t begin, std::uintptr_t end) { shadow_.Forget(begin, end); }

 private:
  VectorClock& ClockOf(RaceThread thread);
  Epoch Now(RaceThread thread) { return {thread, ClockOf(thread).Get(thread)}; }
  std::optional<Race> Access(RaceThread thread, std::uintptr_t address, std::size_t size, const void* site, bool write);
  std::optional<Race> AccessGranule(RaceThread thread, std::uintptr_t granule, std::uint8_t bytes, const void* site,
                                    bool write);
  // A race of the current access with `previous`, unless its pair of sites
  // was reported already.
  std::optional<Race> Report(std::uintptr_t granule, std::uint8_t common, RaceAccess current, RaceAccess previous);

  std::vector<VectorClock> threads_;
  std::unordered_map<const void*, VectorClock> syncs_;
  ShadowMemory shadow_;
  std::set<std::pair<const void*, const void*>> reported_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_RACE_DETECTOR_H_
