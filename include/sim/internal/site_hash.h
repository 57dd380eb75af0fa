// site_hash.h: the hash SIM_GATE puts in its site descriptor. Internal: use
// SIM_GATE of sim/sim.h; names here may change without notice.
#ifndef SIM_INTERNAL_SITE_HASH_H_
#define SIM_INTERNAL_SITE_HASH_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sim::internal {

// FNV-1a 64 of "basename(file):line", as the pass computes for its sites.
constexpr std::uint64_t SiteHash(std::string_view file, unsigned line) {
  const std::size_t slash = file.rfind('/');
  if (slash != std::string_view::npos) file = file.substr(slash + 1);
  std::uint64_t hash = 14695981039346656037ULL;
  auto mix = [&hash](char c) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  };
  for (char c : file) mix(c);
  mix(':');
  char digits[12];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + line % 10);
    line /= 10;
  } while (line != 0);
  while (count > 0) mix(digits[--count]);
  return hash;
}

}  // namespace sim::internal

#endif  // SIM_INTERNAL_SITE_HASH_H_
