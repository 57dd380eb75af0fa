// pct_estimates.cpp: pct's estimate across seeds (see pct_estimates.h).
#include "pct_estimates.h"

#include <algorithm>

namespace simrun {

std::uint64_t PctEstimates::For(std::uint64_t seed) {
  const std::uint64_t batch_start = BatchStart(seed);
  // Seeds are asked for in increasing order, so what lies below this batch
  // is folded once.
  if (batch_start > folded_up_to_) {
    for (auto it = met_.begin(); it != met_.end() && it->first < batch_start; it = met_.erase(it)) {
      longest_ = std::max(longest_, it->second);
    }
    folded_up_to_ = batch_start;
  }
  return longest_ > kDefault ? longest_ : 0;
}

}  // namespace simrun
