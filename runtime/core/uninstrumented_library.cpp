// uninstrumented_library.cpp: see uninstrumented_library.h.
#include "core/uninstrumented_library.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <string_view>
#include <utility>
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

using CodeRange = std::pair<std::uintptr_t, std::uintptr_t>;  // [first, second)

struct Library {
  std::string path;
  std::vector<CodeRange> code;  // its executable segments
};

// The shared libraries loaded, in load order. The executable has no name
// here, and is not looked at: an object in it built without sim-clang++ is
// a known limit (README).
std::vector<Library> LoadedLibraries() {
  std::vector<Library> libraries;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;
        Library library{info->dlpi_name, {}};
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0) continue;
          const std::uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
          library.code.emplace_back(begin, begin + segment.p_memsz);
        }
        static_cast<std::vector<Library>*>(data)->push_back(std::move(library));
        return 0;
      },
      &libraries);
  return libraries;
}

// The loaded libraries built without sim-clang++ and not taken on trust:
// looked at once per process.
struct Uninstrumented {
  std::string first;            // the first one's path, or ""
  std::vector<CodeRange> code;  // all their executable segments, by address
};

const Uninstrumented& UninstrumentedLibraries() {
  static const Uninstrumented found = [] {
    Uninstrumented libraries;
    for (const Library& library : LoadedLibraries()) {
      if (TakenOnTrust(library.path) || Instrumented(library.path)) continue;
      if (libraries.first.empty()) libraries.first = library.path;
      libraries.code.insert(libraries.code.end(), library.code.begin(), library.code.end());
    }
    std::sort(libraries.code.begin(), libraries.code.end());
    return libraries;
  }();
  return found;
}

}  // namespace

const std::string& FirstUninstrumentedLibrary() { return UninstrumentedLibraries().first; }

bool InUninstrumentedLibrary(const void* code) {
  const std::vector<CodeRange>& ranges = UninstrumentedLibraries().code;
  const auto address = reinterpret_cast<std::uintptr_t>(code);
  const auto after = std::upper_bound(ranges.begin(), ranges.end(), CodeRange{address, UINTPTR_MAX});
  return after != ranges.begin() && address < std::prev(after)->second;
}

}  // namespace sim::internal
