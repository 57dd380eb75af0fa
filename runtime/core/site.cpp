// site.cpp: frame capture, module-relative site hashes and report-time
// symbolization through llvm-symbolizer.
#include "core/site.h"

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include "core/runtime_code.h"
#include "core/symbolizer.h"

namespace sim::internal {
namespace {

std::uint64_t Fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ULL) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string_view Basename(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

struct Module {
  std::uintptr_t start, end;  // one loaded segment
  std::uintptr_t bias;        // dlpi_addr: address = bias + file virtual address
  std::string path;
  std::uint64_t name_hash;
};

std::vector<Module>& Modules() {
  static std::vector<Module> modules;
  return modules;
}

// Consecutive sites are nearly always in the same module.
const Module* last_module = nullptr;

void ScanModules() {
  last_module = nullptr;
  for (CachedSiteHash& entry : site_hash_cache) entry = CachedSiteHash{};
  std::vector<Module> modules;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* out = static_cast<std::vector<Module>*>(data);
        std::string path = info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' ? info->dlpi_name : "";
        if (path.empty()) {
          char exe[4096];
          const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
          path = length > 0 ? std::string(exe, static_cast<std::size_t>(length)) : "/proc/self/exe";
        }
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_LOAD) continue;
          const std::uintptr_t start = info->dlpi_addr + header.p_vaddr;
          out->push_back({start, start + header.p_memsz, info->dlpi_addr, path, Fnv1a(Basename(path))});
        }
        return 0;
      },
      &modules);
  std::sort(modules.begin(), modules.end(), [](const Module& a, const Module& b) { return a.start < b.start; });
  Modules() = std::move(modules);
}

const Module* ModuleOf(const void* address) {
  const auto value = reinterpret_cast<std::uintptr_t>(address);
  if (last_module != nullptr && value >= last_module->start && value < last_module->end) return last_module;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::vector<Module>& modules = Modules();
    auto it = std::upper_bound(modules.begin(), modules.end(), value,
                               [](std::uintptr_t v, const Module& m) { return v < m.start; });
    if (it != modules.begin() && value < std::prev(it)->end) return last_module = &*std::prev(it);
    ScanModules();  // a module loaded since the last scan
  }
  return nullptr;
}

// A return address points after its call, which may be a range's last
// instruction: the call itself is the byte before.
bool IsRuntimeReturnAddress(const void* address) {
  return IsRuntimeCode(static_cast<const char*>(address) - 1);
}

bool IsRuntimeOrSystemFile(std::string_view file) {
  return file.empty() || file == "??" || file == "<unknown>" || file.starts_with("/usr/include/") ||
         file.starts_with("/usr/lib/") || file.starts_with("/usr/src/") ||
         file.find("googletest/") != std::string_view::npos || file.find("googlemock/") != std::string_view::npos ||
         file.find(SIM_RUNTIME_SOURCE_DIR) != std::string_view::npos ||
         file.find("/include/sim/") != std::string_view::npos;
}

}  // namespace

std::uint64_t Site::HashByModule() const {
  if (frames[0] == nullptr) return 0;
  const Module* module = ModuleOf(frames[0]);
  if (module == nullptr) return 0;
  const auto address = reinterpret_cast<std::uintptr_t>(frames[0]);
  const std::uint64_t hash = module->name_hash ^ (address - module->bias);
  SiteHashSlot(frames[0]) = {frames[0], hash};
  return hash;
}

namespace {

// Calls `visit` with the return address of each frame from `frame` up, at
// most `max` of them, while the frames stay below `stack_high`.
template <typename Visit>
inline void WalkFrames(void* const* frame, const void* stack_low, const void* stack_high, std::size_t max,
                       Visit visit) {
  if (frame < stack_low) return;
  // Each caller's frame is above the last (checked), so only the top bound
  // needs checking as the walk goes up.
  for (std::size_t i = 0; i < max; ++i) {
    if (frame >= stack_high) break;
    visit(i, frame[1]);
    auto* caller = static_cast<void* const*>(frame[0]);
    if (caller <= frame) break;  // frame pointers grow towards the stack top
    frame = caller;
  }
}

}  // namespace

__attribute__((noinline)) Site CaptureCallerSite(const void* stack_low, const void* stack_high) {
  Site site;
  // Frame 0 is this function, frame 1 the interceptor: start at its caller.
  auto* frame = static_cast<void* const*>(__builtin_frame_address(0));
  WalkFrames(static_cast<void* const*>(frame[0]), stack_low, stack_high, Site::kMaxFrames,
             [&site](std::size_t i, const void* address) { site.frames[i] = address; });
  return site;
}

__attribute__((noinline)) std::vector<const void*> CaptureCallers(const void* stack_low, const void* stack_high,
                                                                  std::size_t max) {
  std::vector<const void*> callers;
  auto* frame = static_cast<void* const*>(__builtin_frame_address(0));
  WalkFrames(static_cast<void* const*>(frame[0]), stack_low, stack_high, max,
             [&callers](std::size_t, const void* address) { callers.push_back(address); });
  return callers;
}

void SiteNamer::Add(const Site& site) {
  if (site.source != nullptr) return;  // named from its descriptor
  for (const void* frame : site.frames) Add(frame);
}

void SiteNamer::Add(const void* return_address) {
  if (return_address != nullptr) pending_.push_back(return_address);
}

std::string SiteNamer::CodeQuery(const void* address) {
  const Module* module = ModuleOf(address);
  if (module == nullptr || IsRuntimeReturnAddress(address)) return "";
  char line[4200];
  // A return address points after the call; step back into it.
  std::snprintf(line, sizeof line, "\"%s\" 0x%zx\n", module->path.c_str(),
                reinterpret_cast<std::uintptr_t>(address) - 1 - module->bias);
  return line;
}

void SiteNamer::AskAhead() {
  std::string queries;
  for (const void* address : pending_) queries += CodeQuery(address);
  pending_.clear();
  if (!queries.empty()) ::sim::internal::AskAhead(queries);
}

void SiteNamer::SymbolizePending() {
  std::vector<const void*> addresses;
  for (const void* address : pending_) {
    const bool known =
        std::any_of(symbolized_.begin(), symbolized_.end(), [&](const auto& entry) { return entry.first == address; });
    if (!known && std::find(addresses.begin(), addresses.end(), address) == addresses.end()) {
      addresses.push_back(address);
    }
  }
  pending_.clear();
  if (addresses.empty()) return;

  std::string input;
  std::vector<const void*> in_modules;
  for (const void* address : addresses) {
    if (ModuleOf(address) == nullptr) {
      symbolized_.emplace_back(address, std::vector<Frame>{});  // JIT code or a stale frame: nothing to look up
    } else if (IsRuntimeReturnAddress(address)) {
      // Where the user's frames end, as the runtime's named frame did (no file of the user's).
      symbolized_.emplace_back(address, std::vector<Frame>{Frame{}});
    } else {
      in_modules.push_back(address);
    }
  }
  addresses = std::move(in_modules);
  if (addresses.empty()) return;
  for (const void* address : addresses) input += CodeQuery(address);

  const std::string output = Symbolize(input);

  // Output: per address, pairs of lines "function" / "file:line:column",
  // innermost inline frame first, then an empty line.
  std::size_t position = 0;
  for (const void* address : addresses) {
    std::vector<Frame> frames;
    for (;;) {
      const std::size_t end_of_function = output.find('\n', position);
      if (end_of_function == std::string::npos || end_of_function == position) {
        position = end_of_function == std::string::npos ? output.size() : end_of_function + 1;
        break;
      }
      const std::size_t end_of_location = output.find('\n', end_of_function + 1);
      if (end_of_location == std::string::npos) break;
      Frame frame;
      frame.function = output.substr(position, end_of_function - position);
      std::string location = output.substr(end_of_function + 1, end_of_location - end_of_function - 1);
      // "file:line:column" (the file may itself hold no colon on Linux paths we care about).
      const std::size_t last_colon = location.rfind(':');
      const std::size_t line_colon =
          last_colon == std::string::npos ? std::string::npos : location.rfind(':', last_colon - 1);
      if (line_colon != std::string::npos) {
        frame.file = location.substr(0, line_colon);
        frame.line = static_cast<unsigned>(std::strtoul(location.c_str() + line_colon + 1, nullptr, 10));
      }
      frames.push_back(std::move(frame));
      position = end_of_location + 1;
    }
    symbolized_.emplace_back(address, std::move(frames));
  }
}

const std::vector<SiteNamer::Frame>* SiteNamer::FramesAt(const void* address) {
  for (const auto& entry : symbolized_) {
    if (entry.first == address) return &entry.second;
  }
  pending_.push_back(address);
  SymbolizePending();
  for (const auto& entry : symbolized_) {
    if (entry.first == address) return &entry.second;
  }
  return nullptr;
}

const std::vector<SiteNamer::Frame>* SiteNamer::UserFrame(const Site& site, const Frame** chosen) {
  if (!pending_.empty()) SymbolizePending();
  *chosen = nullptr;
  const std::vector<Frame>* first = nullptr;
  for (const void* address : site.frames) {
    if (address == nullptr) break;
    const std::vector<Frame>* frames = FramesAt(address);
    if (frames == nullptr || frames->empty()) continue;
    if (first == nullptr) first = frames;
    for (const Frame& frame : *frames) {
      if (!IsRuntimeOrSystemFile(frame.file)) {
        *chosen = &frame;
        return frames;
      }
    }
  }
  if (first != nullptr) *chosen = &first->front();
  return first;
}

std::string SiteNamer::Name(const Site& site) {
  const Location at = Locate(site);
  return at.has_line ? at.where + ":" + std::to_string(at.line) : at.where;
}

SiteNamer::Location SiteNamer::Locate(const Site& site) {
  if (site.source != nullptr) return {std::string(Basename(site.source->file)), true, site.source->line};
  if (site.frames[0] == nullptr) return {"(no site)"};
  const Frame* frame;
  UserFrame(site, &frame);
  if (frame != nullptr && frame->line != 0) return {std::string(Basename(frame->file)), true, frame->line};
  // No line information (a system library without debug info): name the
  // function and module, which is what a reader can look up.
  const Module* module = ModuleOf(site.frames[0]);
  const std::string module_name = module != nullptr ? std::string(Basename(module->path)) : "?";
  if (frame != nullptr && !frame->function.empty() && frame->function != "??") {
    const std::string& function = frame->function;
    return {function.substr(0, function.find('(')) + "() (" + module_name + ")"};
  }
  char fallback[512];
  std::snprintf(fallback, sizeof fallback, "%s+0x%zx", module_name.c_str(),
                module != nullptr ? reinterpret_cast<std::uintptr_t>(site.frames[0]) - module->bias : 0);
  return {fallback};
}

bool SiteNamer::IsUserSite(const Site& site) {
  if (site.source != nullptr) return !IsRuntimeOrSystemFile(site.source->file);
  if (site.frames[0] == nullptr) return false;
  const Frame* frame;
  UserFrame(site, &frame);
  return frame != nullptr && !IsRuntimeOrSystemFile(frame->file);
}

std::vector<SiteNamer::Call> SiteNamer::Calls(const void* address) {
  if (!pending_.empty()) SymbolizePending();
  std::vector<Call> calls;
  if (const std::vector<Frame>* frames = FramesAt(address)) {
    for (const Frame& frame : *frames) {
      calls.push_back({frame.function, std::string(Basename(frame.file)), frame.line,
                       !frame.file.empty() && !IsRuntimeOrSystemFile(frame.file)});
    }
  }
  return calls;
}

std::optional<SiteNamer::Global> SiteNamer::GlobalAt(const void* address) {
  const Module* module = ModuleOf(address);
  if (module == nullptr) return std::nullopt;
  char query[4200];
  std::snprintf(query, sizeof query, "DATA \"%s\" 0x%zx\n", module->path.c_str(),
                reinterpret_cast<std::uintptr_t>(address) - module->bias);
  // "name", "start size" (decimal), then where it is declared, "file:line".
  // Parsed by hand: a string stream would take the C++ library's locale,
  // whose first use is a pthread_once, a scheduling point in the middle of
  // the race's report.
  const std::string answer = Symbolize(query);
  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < answer.size() && lines.size() < 3;) {
    const std::size_t end = std::min(answer.find('\n', begin), answer.size());
    lines.push_back(answer.substr(begin, end - begin));
    begin = end + 1;
  }
  Global global;
  if (lines.size() < 2 || lines[0].empty() || lines[0] == "??") return std::nullopt;
  global.name = lines[0];
  char* after_start = nullptr;
  const std::uintptr_t start = std::strtoull(lines[1].c_str(), &after_start, 10);
  global.size = std::strtoull(after_start, nullptr, 10);
  if (global.size == 0) return std::nullopt;
  if (lines.size() == 3 && !lines[2].empty() && !lines[2].starts_with("??")) global.declared = Basename(lines[2]);
  global.start = reinterpret_cast<const void*>(start + module->bias);
  return global;
}

std::string SiteNamer::Function(const Site& site) {
  if (site.source != nullptr) return site.source->function != nullptr ? site.source->function : "";
  const Frame* frame;
  UserFrame(site, &frame);
  return frame != nullptr && frame->function != "??" ? frame->function : "";
}

}  // namespace sim::internal
