// sim-symbolizer: names the frames and globals of a report, as llvm-symbolizer
// does, for the runtime (core/symbolizer.h).
//
// llvm-symbolizer links libLLVM.so: it spends about 0.1 s starting (relocating
// and initialising the whole of LLVM) before it reads a line, more than a
// small program's execution, and a whole program's failure is told once per
// process. This program links only LLVM's Symbolize library, statically, and
// starts in a few milliseconds; what it prints is what
// `llvm-symbolizer --demangle --inlines --functions=linkage` prints for the
// same queries, so the runtime reads either.
//
// Queries, one per line on stdin:
//   "<module>" 0x<offset>        a code address: per inlined frame, innermost
//                                first, its function and <file>:<line>:<column>
//   DATA "<module>" 0x<offset>   a data address: the global's name, its start
//                                and size, and where it is declared
// each answer ending in an empty line, flushed as it is written.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/raw_ostream.h"

namespace {

struct Query {
  bool data = false;
  std::string module;
  std::uint64_t offset = 0;
};

std::optional<Query> ParseQuery(std::string_view line) {
  Query query;
  if (line.starts_with("DATA ")) {
    query.data = true;
    line.remove_prefix(5);
  } else if (line.starts_with("CODE ")) {
    line.remove_prefix(5);
  }
  if (!line.starts_with('"')) return std::nullopt;
  const std::size_t closing = line.find('"', 1);
  if (closing == std::string_view::npos) return std::nullopt;
  query.module = std::string(line.substr(1, closing - 1));
  const std::string offset(line.substr(closing + 1));
  char* end = nullptr;
  query.offset = std::strtoull(offset.c_str(), &end, 16);
  if (end == offset.c_str()) return std::nullopt;
  return query;
}

// llvm-symbolizer's unknowns: "??" for a name or file, 0 for a line.
std::string OrUnknown(const std::string& text) {
  return text.empty() || text == llvm::DILineInfo::BadString ? "??" : text;
}

void AnswerCode(llvm::symbolize::LLVMSymbolizer& symbolizer, const Query& query, llvm::raw_ostream& out) {
  llvm::Expected<llvm::DIInliningInfo> frames = symbolizer.symbolizeInlinedCode(
      query.module, {query.offset, llvm::object::SectionedAddress::UndefSection});
  if (!frames) {
    llvm::consumeError(frames.takeError());
    out << "??\n??:0:0\n";
    return;
  }
  if (frames->getNumberOfFrames() == 0) frames->addFrame(llvm::DILineInfo());
  for (std::uint32_t i = 0; i < frames->getNumberOfFrames(); ++i) {
    const llvm::DILineInfo& frame = frames->getFrame(i);
    const std::string function = frame.FunctionName == llvm::DILineInfo::BadString
                                     ? "??"
                                     : llvm::symbolize::LLVMSymbolizer::DemangleName(frame.FunctionName, nullptr);
    out << function << '\n' << OrUnknown(frame.FileName) << ':' << frame.Line << ':' << frame.Column << '\n';
  }
}

void AnswerData(llvm::symbolize::LLVMSymbolizer& symbolizer, const Query& query, llvm::raw_ostream& out) {
  llvm::Expected<llvm::DIGlobal> global =
      symbolizer.symbolizeData(query.module, {query.offset, llvm::object::SectionedAddress::UndefSection});
  if (!global) {
    llvm::consumeError(global.takeError());
    global = llvm::DIGlobal();
  }
  out << OrUnknown(global->Name) << '\n' << global->Start << ' ' << global->Size << '\n';
  if (global->DeclFile.empty()) {
    out << "??:?\n";
  } else {
    out << global->DeclFile << ':' << global->DeclLine << '\n';
  }
}

// Reading a program's debug information fills a few MB of heap, a vector
// at a time. Touched page by page, that was a page fault per 4 KiB (some
// 750 in a small program's race report, at about 11 us each on a 2-core
// VM); mapped in one call up front, it is none. What is not used of it
// costs its zeroing only (about 1.5 ms of CPU for the 8 MB).
void PopulateHeapAhead() {
  constexpr std::size_t kHeapAhead = 8 << 20;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // the line tables' large vectors from the heap too
  mallopt(M_TRIM_THRESHOLD, 64 << 20);  // and what is freed stays there
  void* block = malloc(kHeapAhead);
  if (block == nullptr) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(block) + page - 1) & ~(page - 1);
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(block) + kHeapAhead) & ~(page - 1);
  (void)madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
  free(block);
}

}  // namespace

int main(int argc, char** argv) {
  // The runtime passes llvm-symbolizer's flags to whichever it runs; these
  // are the only ones this program answers to.
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag != "--demangle" && flag != "--inlines" && flag != "--functions=linkage") {
      std::cerr << "sim-symbolizer: unknown flag '" << flag
                << "' (it answers as llvm-symbolizer --demangle --inlines --functions=linkage does)\n";
      return 2;
    }
  }
  PopulateHeapAhead();
  llvm::symbolize::LLVMSymbolizer::Options options;
  options.Demangle = true;
  options.PrintFunctions = llvm::DINameKind::LinkageName;
  options.PathStyle = llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath;
  llvm::symbolize::LLVMSymbolizer symbolizer(options);
  llvm::raw_ostream& out = llvm::outs();
  for (std::string line; std::getline(std::cin, line);) {
    const std::optional<Query> query = ParseQuery(line);
    if (!query) {
      out << "??\n??:0:0\n";
    } else if (query->data) {
      AnswerData(symbolizer, *query, out);
    } else {
      AnswerCode(symbolizer, *query, out);
    }
    out << '\n';
    out.flush();
  }
  return 0;
}
