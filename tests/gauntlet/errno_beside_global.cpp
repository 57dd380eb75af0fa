// errno_beside_global.cpp: a real race beside errno, three ways. Two
// threads parse with errno = 0; strtol(); and count what they parsed in a
// plain global: unlocked in both (GAUNTLET_RACY), locked in one only
// (GAUNTLET_HALF_FIXED), locked in both (neither defined). The detector must
// report the counter's race in the first two and nothing in the third: errno
// is per thread, the counter is not.
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>

int parsed_count = 0;
std::mutex count_mutex;

int Parse(const char* text, bool locked) {
  errno = 0;
  const long value = std::strtol(text, nullptr, 10);
  if (locked) {
    std::lock_guard guard(count_mutex);
    ++parsed_count;
  } else {
    ++parsed_count;
  }
  return errno == 0 ? static_cast<int>(value) : -1;
}

int main() {
#if defined(GAUNTLET_RACY)
  constexpr bool kFirstLocked = false, kSecondLocked = false;
#elif defined(GAUNTLET_HALF_FIXED)
  constexpr bool kFirstLocked = true, kSecondLocked = false;
#else
  constexpr bool kFirstLocked = true, kSecondLocked = true;
#endif
  int first = 0;
  int second = 0;
  std::thread a([&] { first = Parse("12", kFirstLocked); });
  std::thread b([&] { second = Parse("99999999999999999999999", kSecondLocked); });
  a.join();
  b.join();
  return first == 12 && second == -1 && parsed_count == 2 ? 0 : 1;
}
