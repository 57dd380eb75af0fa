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

// An epoch is one word, so that the shadow's record of an access fits in 16
// bytes and two epochs compare as integers: 20 bits of thread, 44 of clock.
// Neither runs out in practice: a thread's clock ticks once per release (a
// sync operation of the simulated world, tens of ns at least), so 2^44 is
// days of nothing but releases; and every thread's vector clock has an entry
// per thread, so a million threads in one execution would already need
// terabytes of clocks. Should either run out all the same, the detector says
// so and stops the process (DieOfRaceDetectorLimit) rather than wrap and
// confuse two accesses.
inline constexpr unsigned kEpochClockBits = 44;
inline constexpr unsigned kEpochThreadBits = 64 - kEpochClockBits;
inline constexpr Clock kMaxClock = (Clock{1} << kEpochClockBits) - 1;
inline constexpr RaceThread kMaxRaceThreads = RaceThread{1} << kEpochThreadBits;

// Says which of the detector's limits was passed, on stderr, and aborts
// (race_detector.cpp).
[[noreturn]] void DieOfRaceDetectorLimit(const char* what);

// thread@clock; the empty epoch (clock 0) happens before everything.
class Epoch {
 public:
  Epoch() = default;
  Epoch(RaceThread thread, Clock clock) : word_(std::uint64_t{thread} << kEpochClockBits | clock) {}
  RaceThread thread() const { return static_cast<RaceThread>(word_ >> kEpochClockBits); }
  Clock clock() const { return word_ & kMaxClock; }
  // A thread's first clock is 1, so only the empty epoch is the word 0.
  bool empty() const { return word_ == 0; }
  bool operator==(const Epoch&) const = default;

 private:
  std::uint64_t word_ = 0;
};

class VectorClock {
 public:
  Clock Get(RaceThread thread) const { return thread < clocks_.size() ? clocks_[thread] : 0; }
  void Set(RaceThread thread, Clock clock) {
    if (thread >= clocks_.size()) clocks_.resize(thread + 1, 0);
    clocks_[thread] = clock;
  }
  void Tick(RaceThread thread) {
    const Clock next = Get(thread) + 1;
    if (next > kMaxClock) DieOfRaceDetectorLimit("a thread's clock passed 2^44 - 1 releases");
    Set(thread, next);
  }
  // Everything `other` knows, this knows now (an acquire, a join).
  void Join(const VectorClock& other) {
    if (other.clocks_.size() > clocks_.size()) clocks_.resize(other.clocks_.size(), 0);
    for (std::size_t i = 0; i < other.clocks_.size(); ++i) clocks_[i] = std::max(clocks_[i], other.clocks_[i]);
  }
  // Whether `epoch` happened before the moment this clock describes.
  bool Knows(Epoch epoch) const { return epoch.clock() <= Get(epoch.thread()); }
  std::size_t size() const { return clocks_.size(); }
  void Clear() { clocks_.clear(); }

 private:
  std::vector<Clock> clocks_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_VECTOR_CLOCK_H_
