// uninstrumented_library.cpp: see uninstrumented_library.h.
#include "core/uninstrumented_library.h"

#include <dlfcn.h>
#include <link.h>

#include <string_view>
#include <vector>

namespace sim::internal {
namespace {

// The C and C++ runtimes, the loader and the vDSO.
bool TakenOnTrust(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view system : {"linux-vdso.so", "linux-gate.so", "ld-linux", "libc.so", "libm.so", "libmvec.so",
                                  "libstdc++.so", "libgcc_s.so", "libpthread.so", "libdl.so", "librt.so"}) {
    if (name.starts_with(system)) return true;
  }
  return false;
}

// Every module the pass instruments defines __sim_instrumented (a weak,
// exported marker): looked up in the library itself, not in what it links.
bool Instrumented(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  bool instrumented = false;
  if (void* marker = dlsym(handle, "__sim_instrumented")) {
    Dl_info info{};
    instrumented = dladdr(marker, &info) != 0 && info.dli_fname != nullptr && path == info.dli_fname;
  }
  dlclose(handle);
  return instrumented;
}

std::string Find() {
  std::vector<std::string> libraries;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        // The executable has no name here, and is not looked at: an object
        // in it built without sim-clang++ is a known limit (README).
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
          static_cast<std::vector<std::string>*>(data)->push_back(info->dlpi_name);
        }
        return 0;
      },
      &libraries);
  for (const std::string& path : libraries) {
    if (!TakenOnTrust(path) && !Instrumented(path)) return path;
  }
  return "";
}

}  // namespace

const std::string& FirstUninstrumentedLibrary() {
  static const std::string library = Find();
  return library;
}

}  // namespace sim::internal
