// runtime_code.cpp: see runtime_code.h.
#include "core/runtime_code.h"

#include <cstddef>
#include <cstdint>

namespace sim::internal {
namespace {

struct CodeRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};

// One per runtime archive (libsimrt, libsim_whole_program); registered
// before main, read only after.
constexpr std::size_t kMaxRanges = 4;
CodeRange ranges[kMaxRanges];
std::size_t range_count = 0;

}  // namespace

void RegisterRuntimeCode(const char* begin, const char* end) {
  if (begin == nullptr || end == nullptr || begin >= end || range_count == kMaxRanges) return;
  ranges[range_count++] = {reinterpret_cast<std::uintptr_t>(begin), reinterpret_cast<std::uintptr_t>(end)};
}

bool IsRuntimeCode(const void* address) {
  const auto value = reinterpret_cast<std::uintptr_t>(address);
  for (std::size_t i = 0; i < range_count; ++i) {
    if (value >= ranges[i].begin && value < ranges[i].end) return true;
  }
  return false;
}

}  // namespace sim::internal

SIM_REGISTER_RUNTIME_CODE(simrt)
