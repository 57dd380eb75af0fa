// site.h: where in the program a scheduling point happened.
//
// Two sources: a static descriptor emitted by the pass (or SIM_GATE), which
// names file and line with no symbolizer; or, for an intercepted call, the
// return addresses of the few frames above the interceptor, which are
// symbolized only when a report is rendered. The trace hash uses the
// descriptor's precomputed hash, or the module-relative offset of the
// innermost return address: never a load address.
#ifndef SIM_RUNTIME_SITE_H_
#define SIM_RUNTIME_SITE_H_

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "sim/sim_interface.h"

namespace sim::internal {

// The hash of an intercepted call's return address, by address: the same
// few call sites recur at every scheduling point, and the module lookup
// (a binary search when consecutive sites are in different modules) was a
// twentieth of an execution. Direct-mapped; emptied when modules are
// rescanned. An empty slot holds (null, 0), which is also the hash of a
// site with no frames.
struct CachedSiteHash {
  const void* address = nullptr;
  std::uint64_t hash = 0;
};
inline CachedSiteHash site_hash_cache[256];
inline CachedSiteHash& SiteHashSlot(const void* address) {
  const auto value = reinterpret_cast<std::uintptr_t>(address);
  return site_hash_cache[(value ^ (value >> 8)) % std::size(site_hash_cache)];
}

struct Site {
  static constexpr int kMaxFrames = 6;
  const __sim_site* source = nullptr;
  // Innermost first; unused slots are null. Meaningful only while source is
  // null: a scheduling point at a pass-emitted site sets source and leaves
  // the frames as they were, since clearing six slots per access was a
  // visible share of an access's in-world cost.
  const void* frames[kMaxFrames] = {};

  // Inline up to the cache, which answers nearly every call: this runs at
  // every scheduling point of an intercepted call.
  std::uint64_t Hash() const {
    if (source != nullptr) return source->hash;
    const CachedSiteHash& cached = SiteHashSlot(frames[0]);
    return cached.address == frames[0] ? cached.hash : HashByModule();
  }
  bool empty() const { return source == nullptr && frames[0] == nullptr; }

 private:
  std::uint64_t HashByModule() const;  // and caches it
};

// The frames above the function that calls this (an interceptor), found by
// walking frame pointers that stay inside [stack_low, stack_high).
// Precondition: the runtime and the caller keep frame pointers.
Site CaptureCallerSite(const void* stack_low, const void* stack_high);
// The same walk, past Site's few frames: up to `max` return addresses, from
// the caller of the function that calls this (for a race's stack, which
// must get past the runtime's own frames to the user's).
std::vector<const void*> CaptureCallers(const void* stack_low, const void* stack_high, std::size_t max);

// Renders sites as "file:line" in the user's code: the first frame (inline
// frames included) outside system headers, the C++ library and simthread.
// Symbolizes all pending addresses in one llvm-symbolizer call.
class SiteNamer {
 public:
  void Add(const Site& site);          // queue its frames for symbolization
  void Add(const void* return_address);
  // Hands what is queued to the symbolizer without waiting for it
  // (core/symbolizer.h AskAhead), and forgets it: for the process that will
  // lend the symbolizer to the one that names these frames.
  void AskAhead();
  std::string Name(const Site& site);  // "file.cpp:42" or "function+0x12 (module)"
  // Name in its parts: `where` is the file's basename when the site has a
  // line, else the whole name without one (`f() (libx.so)`, `libx.so+0x12`).
  struct Location {
    std::string where;
    bool has_line = false;
    unsigned line = 0;
  };
  Location Locate(const Site& site);
  std::string Function(const Site& site);
  // False when every frame of the site is in the C++ library, libc,
  // GoogleTest or simthread itself: not the user's code.
  bool IsUserSite(const Site& site);
  // Every frame at a return address, inlined ones first (innermost): for a
  // stack, where a site names only the first of the user's.
  struct Call {
    std::string function;
    std::string where;  // the file's basename
    unsigned line = 0;
    bool user = false;  // outside system headers, the C++ library and simthread
  };
  std::vector<Call> Calls(const void* address);
  // The global variable (or static) that holds `address`, when its module's
  // symbols say: for a race report's "Location is global" line.
  struct Global {
    std::string name;
    const void* start = nullptr;
    std::size_t size = 0;
    std::string declared;  // "file.cpp:3", or "" when not known
  };
  std::optional<Global> GlobalAt(const void* address);

 private:
  struct Frame {
    std::string function;
    std::string file;
    unsigned line = 0;
  };
  void SymbolizePending();
  // llvm-symbolizer's query for the call before `address` ("" outside every module).
  static std::string CodeQuery(const void* address);
  const std::vector<Frame>* FramesAt(const void* address);
  const std::vector<Frame>* UserFrame(const Site& site, const Frame** frame);

  std::vector<const void*> pending_;
  std::vector<std::pair<const void*, std::vector<Frame>>> symbolized_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_SITE_H_
