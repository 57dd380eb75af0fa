// thread_local_census.cpp: see thread_local_census.h.
#include "core/thread_local_census.h"

#include <ctype.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>
#include <locale.h>
#include <netdb.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "core/elf_thread_locals.h"
#include "core/spin_locked.h"
#include "core/thread_control_block.h"
#include "sim/sim_interface.h"

namespace sim::internal {
namespace {

// A module whose static TLS block is further than this below the thread
// pointer is not in the static block at all (its TLS is dynamic, from dlopen).
constexpr std::ptrdiff_t kStaticTlsReach = std::ptrdiff_t{1} << 24;

struct RegisteredThreadLocal {
  std::ptrdiff_t below_thread_pointer;
  std::size_t size;
};

// Constructors of modules dlopen'ed from several threads may register at once.
struct Registry {
  SpinLocked<std::vector<RegisteredThreadLocal>> thread_locals;
  std::atomic<std::size_t> version{0};
};
Registry& Registered() {
  static Registry registry;
  return registry;
}

std::ptrdiff_t BelowThreadPointer(const void* address) {
  return static_cast<const char*>(CurrentThreadPointer()) - static_cast<const char*>(address);
}

const char* BaseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

std::string Demangled(const std::string& name) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string text = status == 0 && demangled != nullptr ? demangled : name;
  std::free(demangled);
  return text;
}

unsigned long long ModulesLoadedEver() {
  unsigned long long adds = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        *static_cast<unsigned long long*>(data) = info->dlpi_adds;
        return 1;  // the first module carries the count
      },
      &adds);
  return adds;
}

struct TlsModule {
  std::string path;  // "" for the executable
  char* block;       // this thread's copy of the module's TLS block (null: not allocated)
  std::size_t size;
};

std::vector<TlsModule> ModulesWithThreadLocals() {
  std::vector<TlsModule> modules;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_TLS || header.p_memsz == 0) continue;
          static_cast<std::vector<TlsModule>*>(data)->push_back({info->dlpi_name != nullptr ? info->dlpi_name : "",
                                                                 static_cast<char*>(info->dlpi_tls_data),
                                                                 header.p_memsz});
        }
        return 0;
      },
      &modules);
  return modules;
}

void CarryWholeBlock(const TlsModule& module, ThreadLocalCensus& census) {
  // libstdc++'s block is its exception globals and call_once's two pointers
  // (32 bytes in GCC 12): every word of it means "this thread's".
  for (std::size_t offset = 0; offset + 4 <= module.size; offset += 8) {
    const std::uint8_t size = module.size - offset >= 8 ? 8 : 4;
    census.carried.push_back({BelowThreadPointer(module.block + offset), size});
  }
}

// libc's word for the thread's locale (uselocale's), which no interface
// names: found as the one word of libc's block that changes to a probe
// locale while the thread uses it.
std::optional<std::ptrdiff_t> FindLocaleWord(const TlsModule& libc) {
  locale_t probe = newlocale(LC_ALL_MASK, "C", nullptr);
  if (probe == nullptr) return std::nullopt;
  const locale_t previous = uselocale(probe);
  std::optional<std::ptrdiff_t> below;
  for (std::size_t offset = 0; offset + sizeof(locale_t) <= libc.size; offset += alignof(locale_t)) {
    locale_t word;
    std::memcpy(&word, libc.block + offset, sizeof word);
    if (word == probe) below = BelowThreadPointer(libc.block + offset);
  }
  uselocale(previous);
  freelocale(probe);
  return below;
}

// Carries libc's words that mean "this thread's", or says why it cannot.
// The rest of libc's block is malloc's per-thread cache and arena, shared
// safely (no simulated thread is preempted inside malloc), and buffers
// strerror and strsignal return (docs/design.md lists them).
std::string CarryLibcWords(const TlsModule& libc, ThreadLocalCensus& census) {
  census.carried.push_back({BelowThreadPointer(__errno_location()), 4});
  census.carried.push_back({BelowThreadPointer(__h_errno_location()), 4});
  if (void* dlerror_result = dlvsym(RTLD_DEFAULT, "__libc_dlerror_result", "GLIBC_PRIVATE")) {
    census.carried.push_back({BelowThreadPointer(dlerror_result), 8});
  }
  const std::optional<std::ptrdiff_t> locale = FindLocaleWord(libc);
  if (!locale.has_value()) return "cannot find libc's per-thread locale";
  census.carried.push_back({*locale, 8});
  // The character class tables of that locale, which uselocale sets too.
  census.carried.push_back({BelowThreadPointer(__ctype_b_loc()), 8});
  census.carried.push_back({BelowThreadPointer(__ctype_tolower_loc()), 8});
  census.carried.push_back({BelowThreadPointer(__ctype_toupper_loc()), 8});
  return "";
}

// Why `module`'s thread-locals keep lazy mode from being exact, or "".
std::string WhyNotMovable(const TlsModule& module, const std::vector<RegisteredThreadLocal>& registered) {
  const std::string name = module.path.empty() ? "the executable" : module.path;
  const std::ptrdiff_t block_below = module.block == nullptr ? 0 : BelowThreadPointer(module.block);
  if (block_below <= 0 || block_below > kStaticTlsReach) {
    return name + " has thread-locals in dynamic TLS (it was loaded with dlopen after start-up)";
  }
  const std::optional<std::vector<ElfThreadLocal>> symbols =
      ReadElfThreadLocals(module.path.empty() ? "/proc/self/exe" : module.path.c_str());
  if (!symbols.has_value()) {
    return name + " has thread-locals, and no symbol table to tell whether sim-clang++ built them (stripped?)";
  }
  if (symbols->empty()) return name + " has thread-locals its symbol table does not name";
  std::vector<std::string> unregistered;
  for (const ElfThreadLocal& symbol : *symbols) {
    const std::ptrdiff_t below = block_below - static_cast<std::ptrdiff_t>(symbol.offset_in_segment);
    const bool built_with_pass = std::any_of(registered.begin(), registered.end(), [&](const auto& known) {
      return known.below_thread_pointer == below && known.size >= symbol.size;
    });
    if (!built_with_pass) unregistered.push_back(Demangled(symbol.name));
  }
  if (unregistered.empty()) return "";
  std::sort(unregistered.begin(), unregistered.end());
  unregistered.erase(std::unique(unregistered.begin(), unregistered.end()), unregistered.end());
  std::string names;
  for (std::size_t i = 0; i < unregistered.size() && i < 3; ++i) names += (i > 0 ? ", " : "") + unregistered[i];
  if (unregistered.size() > 3) names += ", ...";
  return name + " has thread-locals not built with sim-clang++: " + names;
}

ThreadLocalCensus TakeCensus() {
  ThreadLocalCensus census;
  std::vector<RegisteredThreadLocal> registered = Registered().thread_locals.Snapshot();
  // The runtime's own thread-locals describe the OS thread, not a simulated
  // one: they stay on the installed block on purpose.
  registered.push_back({BelowThreadPointer(&simulated_thread_marker), sizeof simulated_thread_marker});
  registered.push_back({BelowThreadPointer(&__sim_tls_delta), sizeof __sim_tls_delta});
  // The first reason found is the one said.
  auto rule_out_lazy = [&census](std::string why) {
    if (why.empty() || !census.lazy_is_exact) return;
    census.lazy_is_exact = false;
    census.why_lazy_is_not_exact = std::move(why);
  };
  census.lazy_is_exact = true;
  for (const TlsModule& module : ModulesWithThreadLocals()) {
    if (module.block != nullptr) {
      const std::ptrdiff_t below = BelowThreadPointer(module.block);
      if (below > 0 && below <= kStaticTlsReach) census.static_reach = std::max(census.static_reach, below);
    }
    const char* base = BaseName(module.path.c_str());
    const bool is_libc = std::strncmp(base, "libc.so", 7) == 0;
    const bool is_libstdcxx = std::strncmp(base, "libstdc++.so", 12) == 0;
    if ((is_libc || is_libstdcxx) && module.block != nullptr) {
      if (is_libstdcxx) CarryWholeBlock(module, census);
      if (is_libc) rule_out_lazy(CarryLibcWords(module, census));
      census.pinned.push_back({BelowThreadPointer(module.block),
                               BelowThreadPointer(module.block + static_cast<std::ptrdiff_t>(module.size))});
      continue;
    }
    if (census.lazy_is_exact) rule_out_lazy(WhyNotMovable(module, registered));
  }
  return census;
}

}  // namespace

void RegisterThreadLocal(const void* address, std::size_t size) {
  Registry& registry = Registered();
  registry.thread_locals.Update(
      [&](auto& thread_locals) { thread_locals.push_back({BelowThreadPointer(address), size}); });
  registry.version.fetch_add(1, std::memory_order_release);
}

const ThreadLocalCensus& CurrentThreadLocalCensus() {
  static ThreadLocalCensus census;
  static unsigned long long census_adds = 0;
  static std::size_t census_version = 0;
  static bool taken = false;
  const unsigned long long adds = ModulesLoadedEver();
  const std::size_t version = Registered().version.load(std::memory_order_acquire);
  if (!taken || adds != census_adds || version != census_version) {
    census = TakeCensus();
    census_adds = adds;
    census_version = version;
    taken = true;
  }
  return census;
}

}  // namespace sim::internal
