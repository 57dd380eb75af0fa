// pct_estimates.h: pct's estimate of an execution's length, carried from
// seed to seed across processes.
//
// pct draws its change points from the first K choice points, and in one
// process (explore(), SIM_TEST) it takes K from the longest execution it has
// seen. Each of sim-run's seeds is a process of its own, so sim-run carries
// K instead: every seed's process writes how many choice points it met, and
// a seed is given (pct_choice_points=K) the most that any seed of an earlier
// batch of kBatch seeds met. Batches, not "every seed before", so that a
// seed's K, and with it its execution, does not depend on --jobs or on which
// seeds happened to end first: a seed waits to start until the batches
// before its own have ended.
#ifndef SIM_TOOLS_SIM_RUN_PCT_ESTIMATES_H_
#define SIM_TOOLS_SIM_RUN_PCT_ESTIMATES_H_

#include <cstdint>
#include <map>
#include <optional>

namespace simrun {

class PctEstimates {
 public:
  static constexpr std::uint64_t kBatch = 16;
  // The runtime's own first estimate (the pct_choice_points default), below
  // which a seed is given nothing.
  static constexpr std::uint64_t kDefault = 64;

  explicit PctEstimates(std::uint64_t first_seed) : first_seed_(first_seed) {}

  // Whether `seed` may start: no seed of an earlier batch is still running
  // (`lowest_running`: the lowest seed running, if any).
  bool Ready(std::uint64_t seed, std::optional<std::uint64_t> lowest_running) const {
    return !lowest_running || *lowest_running >= BatchStart(seed);
  }
  // The estimate `seed` is given, or 0 when the runtime's default stands.
  // Precondition: Ready(seed).
  std::uint64_t For(std::uint64_t seed);
  // What `seed`'s process said it met.
  void Record(std::uint64_t seed, std::uint64_t choice_points) { met_[seed] = choice_points; }

 private:
  std::uint64_t BatchStart(std::uint64_t seed) const { return first_seed_ + (seed - first_seed_) / kBatch * kBatch; }

  std::uint64_t first_seed_;
  std::map<std::uint64_t, std::uint64_t> met_;  // seeds not yet folded into longest_
  std::uint64_t longest_ = 0;                   // over every seed below folded_up_to_
  std::uint64_t folded_up_to_ = 0;
};

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_PCT_ESTIMATES_H_
