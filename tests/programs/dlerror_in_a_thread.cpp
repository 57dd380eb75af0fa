// dlerror() inside a world, as oneTBB calls it on its first parallel_for
// (it tries to dlopen libirml.so.1, which Debian does not ship): glibc
// formats the message with asprintf, whose realloc must not be resolved by
// the runtime at that moment (a dlsym there frees the dlerror result that
// dlerror is still reading). The heap churn after it makes glibc notice a
// corrupt heap; ctest runs this program with tcache off, where it would.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

int main() {
  std::string message;  // a copy: the thread's dlerror text ends with the thread
  std::thread loader([&message] {
    if (dlopen("libsimthread-no-such-library.so.1", RTLD_NOW) != nullptr) return;
    if (const char* error = dlerror()) message = error;
  });
  loader.join();
  if (message.find("libsimthread-no-such-library.so.1") == std::string::npos) {
    std::fprintf(stderr, "dlerror said: %s\n", message.c_str());
    return 1;
  }
  void* blocks[64];
  for (int round = 0; round < 8; ++round) {
    for (void*& block : blocks) block = std::malloc(24);
    for (void* block : blocks) std::free(block);
    std::free(std::malloc(5000));
  }
  return 0;
}
