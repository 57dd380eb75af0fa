// prng.h: the runtime's only source of randomness.
//
// A fixed algorithm (xoshiro256**, seeded through SplitMix64; Blackman and
// Vigna, 2018) so that a seed means the same schedule with every standard
// library. std:: distributions are never used: their output is
// implementation-defined.
#ifndef SIM_RUNTIME_PRNG_H_
#define SIM_RUNTIME_PRNG_H_

#include <cstdint>

namespace sim::internal {

class Prng {
 public:
  explicit Prng(std::uint64_t seed) {
    std::uint64_t mix = seed;
    for (std::uint64_t& word : state_) word = SplitMix64(mix);
  }

  std::uint64_t Next() {
    const std::uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
    const std::uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = RotateLeft(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound) without modulo bias (Lemire's multiply-shift with
  // rejection). Precondition: bound > 0. The rejection threshold is below
  // `bound`, so its 64-bit division (tens of cycles, at every choice point)
  // is needed only when the low half falls below `bound`; the draws and the
  // results are the same as dividing every time.
  std::uint64_t Below(std::uint64_t bound) {
    unsigned __int128 product = static_cast<unsigned __int128>(Next()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = (-bound) % bound;
      while (low < threshold) {
        product = static_cast<unsigned __int128>(Next()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

 private:
  static std::uint64_t SplitMix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static std::uint64_t RotateLeft(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::uint64_t state_[4];
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_PRNG_H_
