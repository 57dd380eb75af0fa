// fork_server_probe.cpp: a program for sim-run's fork-server tests, built
// with sim-clang++ by each test. What it does is chosen by environment
// variables (the seed is read from SIM_OPTIONS, as the test sets it):
//   PROBE_LOG=PATH             append "seed=K parent=<self|other> args=<a|b> stdin=<bytes> ppid=<pid>"
//                              at the end of main
//   PROBE_ADDRESSES=1          print the heap's bytes in use and where blocks
//                              of several sizes and a thread's stack variable
//                              are, then fail (exit 1)
//   PROBE_KILL_PARENT_AT=K     at seed K, when the parent is this program (a
//                              fork server), kill it
//   PROBE_HANG_AT=K            at seed K, block in pause() (outside the world's model)
//   PROBE_STATIC_THREAD=1      start a thread during static initialisation
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

long Seed() {
  const char* options = std::getenv("SIM_OPTIONS");
  const char* at = options != nullptr ? std::strstr(options, "seed=") : nullptr;
  return at != nullptr ? std::strtol(at + 5, nullptr, 10) : -1;
}

long EnvNumber(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::strtol(value, nullptr, 10) : -2;
}

bool ParentIsThisProgram() {
  char self[4096] = {}, parent[4096] = {};
  const std::string parent_exe = "/proc/" + std::to_string(getppid()) + "/exe";
  return readlink("/proc/self/exe", self, sizeof self - 1) > 0 &&
         readlink(parent_exe.c_str(), parent, sizeof parent - 1) > 0 && std::strcmp(self, parent) == 0;
}

const bool static_thread_started = [] {
  if (std::getenv("PROBE_STATIC_THREAD") != nullptr) std::thread([] { pause(); }).detach();
  return true;
}();

}  // namespace

int main(int argc, char** argv) {
  const long seed = Seed();
  const bool served = ParentIsThisProgram();
  if (seed == EnvNumber("PROBE_KILL_PARENT_AT") && served) {
    kill(getppid(), SIGKILL);
    pause();
  }
  if (seed == EnvNumber("PROBE_HANG_AT")) pause();
  if (std::getenv("PROBE_ADDRESSES") != nullptr) {
    const struct mallinfo2 heap = mallinfo2();
    std::fprintf(stderr, "heap=%zu+%zu blocks=", heap.uordblks, heap.fordblks);
    for (const std::size_t size : {16, 24, 40, 100, 200, 1000, 5000}) std::fprintf(stderr, "%p,", std::malloc(size));
    std::fprintf(stderr, "\n");
    void* small = std::malloc(24);
    void* large = std::malloc(1 << 20);
    const void* thread_stack = nullptr;
    std::thread worker([&] {
      int local = 0;
      thread_stack = &local;
    });
    worker.join();
    std::fprintf(stderr, "small=%p large=%p thread_stack=%p\n", small, large, thread_stack);
    return 1;
  }
  if (const char* log = std::getenv("PROBE_LOG")) {
    std::string args;
    for (int i = 1; i < argc; ++i) args += (i > 1 ? "|" : "") + std::string(argv[i]);
    char buffer[256];
    const ssize_t stdin_bytes = read(STDIN_FILENO, buffer, sizeof buffer);
    if (FILE* file = std::fopen(log, "a")) {
      std::fprintf(file, "seed=%ld parent=%s args=%s stdin=%zd ppid=%d\n", seed, served ? "self" : "other",
                   args.c_str(), stdin_bytes, static_cast<int>(getppid()));
      std::fclose(file);
    }
  }
  return 0;
}
