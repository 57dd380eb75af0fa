// libc_writes.cpp: libc calls that write memory the caller gave them, a
// write like the user's own to the race detector (races=1), as
// ThreadSanitizer's interceptors take them: a thread that reads the buffer
// while another's call fills it, with nothing ordering the two, races with
// the call. libc itself is not instrumented, so without these the detector
// would see the user's side of such a race and not libc's.
//
// strerror_r: the GNU form writes the buffer only for an error number it
// has no message for (it returns a message of its own otherwise, and
// writes nothing); the XSI form (__xpg_strerror_r) always copies into it.
// Neither is a scheduling point: the write lies between the thread's points,
// as a free does (World::CheckLibraryWriteForRace).
#include <cstddef>
#include <cstring>

#include "core/world.h"
#include "interceptors/real_function.h"
#include "sim/internal/site_hash.h"

using namespace sim::internal;

namespace {
RealFunction<char*(int, char*, std::size_t)> real_strerror_r("strerror_r");
RealFunction<int(int, char*, std::size_t)> real_xpg_strerror_r("__xpg_strerror_r");

// The string libc left in `buffer` of `length` bytes, its terminator
// included; the whole buffer when it holds none.
std::size_t StringWritten(const char* buffer, std::size_t length) {
  const std::size_t string = strnlen(buffer, length);
  return string < length ? string + 1 : length;
}

void WroteString(const char* buffer, std::size_t length, const __sim_site& function, const void* called_from) {
  if (length == 0 || !InWorld() || current_world->races() == nullptr) return;
  current_world->CheckLibraryWriteForRace(buffer, StringWritten(buffer, length), function, called_from);
}

const __sim_site kStrerrorR = {"", "strerror_r", 0, 0, SiteHash("strerror_r", 0), 0};
}  // namespace

extern "C" {

char* strerror_r(int error, char* buffer, std::size_t length) noexcept {
  char* message = real_strerror_r(error, buffer, length);
  if (message == buffer) WroteString(buffer, length, kStrerrorR, __builtin_return_address(0));
  return message;
}

int __xpg_strerror_r(int error, char* buffer, std::size_t length) noexcept {
  const int result = real_xpg_strerror_r(error, buffer, length);
  WroteString(buffer, length, kStrerrorR, __builtin_return_address(0));
  return result;
}

}  // extern "C"
