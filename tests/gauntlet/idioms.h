// idioms.h: the false-alarm gauntlet's bodies. Each is a correct program made
// only of a common idiom that touches per-thread state (errno, strerror_r's
// buffer, getline, locales, a thread_local cache, pthread keys, std::cout
// under a lock, std::random_device), run by two threads at once; each checks
// its idiom's result and returns false when it is wrong. With the race detector on, none may be
// reported as a race under any tls_switch mode: natively each thread has its
// own errno and locale, and so it must to the detector (docs/design.md,
// "what is per thread to the race detector").
#ifndef SIM_TESTS_GAUNTLET_IDIOMS_H_
#define SIM_TESTS_GAUNTLET_IDIOMS_H_

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <clocale>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <locale>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace gauntlet {

// Runs `each(i)` in two threads and is true when both returned true.
template <typename Each>
bool InTwoThreads(Each each) {
  bool first = false;
  bool second = false;
  std::thread a([&] { first = each(0); });
  std::thread b([&] { second = each(1); });
  a.join();
  b.join();
  return first && second;
}

// errno = 0; strtol(); check errno: one thread overflows, the other does not.
inline bool StrtolErrno() {
  return InTwoThreads([](int i) {
    for (int round = 0; round < 3; ++round) {
      errno = 0;
      const long value = std::strtol(i == 0 ? "12" : "99999999999999999999999", nullptr, 10);
      const bool overflowed = errno == ERANGE;
      if (overflowed != (i == 1) || (i == 0 && value != 12)) return false;
      errno = 0;
      const double small = std::strtod(i == 0 ? "1e-400" : "2.5", nullptr);
      if ((errno == ERANGE) != (i == 0) || (i == 1 && small != 2.5)) return false;
    }
    return true;
  });
}

// errno after failing system calls: open of a missing file, read of a bad
// descriptor, write to a pipe whose reader is closed.
inline bool SyscallErrno() {
  return InTwoThreads([](int i) {
    errno = 0;
    if (open(i == 0 ? "/nonexistent/gauntlet-a" : "/nonexistent/gauntlet-b", O_RDONLY) != -1 || errno != ENOENT)
      return false;
    char byte;
    errno = 0;
    if (read(-1 - i, &byte, 1) != -1 || errno != EBADF) return false;
    int ends[2];
    if (pipe(ends) != 0) return false;
    close(ends[0]);
    errno = 0;
    // MSG-less write to a pipe with no reader: EPIPE (SIGPIPE ignored below).
    const bool epipe = write(ends[1], "x", 1) == -1 && errno == EPIPE;
    close(ends[1]);
    return epipe;
  });
}

// strerror_r (glibc's GNU form) into each thread's own buffer.
inline bool StrerrorR() {
  return InTwoThreads([](int i) {
    char buffer[128];
    const int number = i == 0 ? ENOENT : EACCES;
    const char* text = strerror_r(number, buffer, sizeof buffer);
    return std::string_view(text) == (i == 0 ? "No such file or directory" : "Permission denied");
  });
}

// std::getline over each thread's own stream, and POSIX getline over each
// thread's own FILE.
inline bool Getline() {
  return InTwoThreads([](int i) {
    std::istringstream stream(i == 0 ? "a\nb\nc\n" : "x\ny\n");
    std::string line;
    int lines = 0;
    while (std::getline(stream, line)) ++lines;
    if (lines != (i == 0 ? 3 : 2)) return false;
    char text[] = "one\ntwo\n";
    FILE* file = fmemopen(text, std::strlen(text), "r");
    if (file == nullptr) return false;
    char* posix_line = nullptr;
    std::size_t capacity = 0;
    int posix_lines = 0;
    while (::getline(&posix_line, &capacity, file) != -1) ++posix_lines;
    std::free(posix_line);
    std::fclose(file);
    return posix_lines == 2;
  });
}

// A stream imbued with the classic locale, and uselocale with a locale of
// the thread's own.
inline bool Locales() {
  return InTwoThreads([](int i) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << 1234567 + i;
    if (out.str() != std::to_string(1234567 + i)) return false;
    locale_t own = newlocale(LC_NUMERIC_MASK, "C", static_cast<locale_t>(0));
    if (own == static_cast<locale_t>(0)) return false;
    const locale_t previous = uselocale(own);
    char formatted[32];
    std::snprintf(formatted, sizeof formatted, "%.1f", 1.5 + i);
    uselocale(previous);
    freelocale(own);
    return std::string_view(formatted) == (i == 0 ? "1.5" : "2.5");
  });
}

// A thread_local memo each thread fills and reads alone.
inline int MemoisedSquare(int n) {
  thread_local std::unordered_map<int, int> memo;
  auto [it, inserted] = memo.try_emplace(n, n * n);
  return it->second;
}
inline bool ThreadLocalCache() {
  return InTwoThreads([](int i) {
    int sum = 0;
    for (int round = 0; round < 2; ++round) {
      for (int n = 0; n < 4; ++n) sum += MemoisedSquare(n + i);
    }
    return sum == (i == 0 ? 2 * (0 + 1 + 4 + 9) : 2 * (1 + 4 + 9 + 16));
  });
}

// A value per thread under one pthread key.
inline bool PthreadKeys() {
  static pthread_key_t key;
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, [] { pthread_key_create(&key, nullptr); });
  return InTwoThreads([](int i) {
    static int values[2];
    values[i] = 10 + i;
    pthread_setspecific(key, &values[i]);
    std::this_thread::yield();
    return pthread_getspecific(key) == &values[i];
  });
}

// std::cout from two threads, each line under one mutex.
inline bool CoutUnderLock() {
  static std::mutex mutex;
  return InTwoThreads([](int i) {
    for (int line = 0; line < 2; ++line) {
      std::lock_guard guard(mutex);
      std::cout << "gauntlet: thread " << i << " line " << line << '\n';
    }
    return true;
  });
}

// A std::random_device per thread, each drawing a seed for its own engine.
// Nothing here branches on what was drawn: the values come from outside
// the world, and a schedule must not depend on them.
inline bool RandomDevice() {
  return InTwoThreads([](int) {
    std::random_device device;
    std::mt19937 engine(device());
    const std::uint32_t drawn = engine() | 1u;
    return drawn != 0;
  });
}

struct Idiom {
  const char* name;
  bool (*run)();
};
inline constexpr Idiom kIdioms[] = {
    {"strtol_errno", StrtolErrno}, {"syscall_errno", SyscallErrno},       {"strerror_r", StrerrorR},
    {"getline", Getline},          {"locales", Locales},                  {"thread_local_cache", ThreadLocalCache},
    {"pthread_keys", PthreadKeys}, {"cout_under_lock", CoutUnderLock},     {"random_device", RandomDevice},
};

}  // namespace gauntlet

#endif  // SIM_TESTS_GAUNTLET_IDIOMS_H_
