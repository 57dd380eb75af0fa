// real_function.cpp: dlsym/dlvsym lookup of the functions interceptors shadow.
#include "interceptors/real_function.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>

namespace sim::internal {

void* ResolveRealFunction(const char* name, const char* version) {
  void* function = version != nullptr ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
  if (function == nullptr) {
    // No stdio here: stdio may itself be what is being resolved.
    const char* parts[] = {"simthread: cannot find the real '", name, "' to forward to (",
                           version != nullptr ? version : "default version",
                           "); is libc dynamically linked?\n"};
    for (const char* part : parts) {
      if (write(2, part, std::strlen(part)) < 0) break;
    }
    _exit(70);
  }
  return function;
}

}  // namespace sim::internal
