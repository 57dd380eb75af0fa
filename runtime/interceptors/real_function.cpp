// real_function.cpp: dlsym/dlvsym lookup of the functions interceptors shadow.
#include "interceptors/real_function.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>

#include "core/check.h"

namespace sim::internal {

void* ResolveRealFunction(const char* name, const char* version) {
  void* function = version != nullptr ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
  if (function == nullptr) {
    Die(exit_status::kEnvironment,
        {"cannot find the real '", name, "' to forward to (", version != nullptr ? version : "default version",
         "); is libc dynamically linked?"});
  }
  return function;
}

}  // namespace sim::internal
