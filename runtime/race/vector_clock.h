// vector_clock.h: a thread's knowledge of every thread's progress, and the
// epoch (one thread's clock at one moment) that FastTrack keeps in place of
// a whole clock wherever one suffices.
#ifndef SIM_RUNTIME_RACE_VECTOR_CLOCK_H_
#define SIM_RUNTIME_RACE_VECTOR_CLOCK_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sim::internal {

using RaceThread = std::uint32_t;  // a world's ThreadId
using Clock = std::uint64_t;

// thread@clock; the empty epoch (clock 0) happens before everything.
struct Epoch {
  RaceThread thread = 0;
  Clock clock = 0;
  bool empty() const { return clock == 0; }
};

class VectorClock {
 public:
  Clock Get(RaceThread thread) const { return thread < clocks_.size() ? clocks_[thread] : 0; }
  void Set(RaceThread thread, Clock clock) {
    if (thread >= clocks_.size()) clocks_.resize(thread + 1, 0);
    clocks_[thread] = clock;
  }
  void Tick(RaceThread thread) { Set(thread, Get(thread) + 1); }
  // Everything `other` knows, this knows now (an acquire, a join).
  void Join(const VectorClock& other) {
    if (other.clocks_.size() > clocks_.size()) clocks_.resize(other.clocks_.size(), 0);
    for (std::size_t i = 0; i < other.clocks_.size(); ++i) clocks_[i] = std::max(clocks_[i], other.clocks_[i]);
  }
  // Whether `epoch` happened before the moment this clock describes.
  bool Knows(Epoch epoch) const { return epoch.clock <= Get(epoch.thread); }
  std::size_t size() const { return clocks_.size(); }
  void Clear() { clocks_.clear(); }

 private:
  std::vector<Clock> clocks_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_VECTOR_CLOCK_H_
