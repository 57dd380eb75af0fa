// gate_fixes.cpp: inserting SIM_GATE lines (gate_fixes.h).
#include "gate_fixes.h"

#include <map>

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace gate_finder {
namespace {

// After the last #include line, or at the top of a file without one.
unsigned IncludeOffset(const std::string& code) {
  unsigned offset = 0;
  std::size_t at = 0;
  while (at < code.size()) {
    std::size_t end = code.find('\n', at);
    if (end == std::string::npos) end = code.size();
    std::size_t first = code.find_first_not_of(" \t", at);
    if (first != std::string::npos && first < end && code.compare(first, 8, "#include") == 0) {
      offset = static_cast<unsigned>(std::min(end + 1, code.size()));
    }
    at = end + 1;
  }
  return offset;
}

bool IncludesSimHeader(const std::string& code) {
  std::size_t at = 0;
  while ((at = code.find("sim/sim.h", at)) != std::string::npos) {
    const std::size_t line = code.rfind('\n', at) + 1;  // npos + 1 == 0: the first line
    const std::size_t first = code.find_first_not_of(" \t", line);
    if (first != std::string::npos && code.compare(first, 8, "#include") == 0) return true;
    ++at;
  }
  return false;
}

}  // namespace

int ApplyGates(const std::vector<Finding>& findings, std::vector<std::string>& errors) {
  std::map<std::string, std::vector<const Finding*>> by_file;
  for (const Finding& finding : findings) {
    if (finding.insertion.possible) by_file[finding.insertion.at.file].push_back(&finding);
  }
  int inserted = 0;
  for (const auto& [file, in_file] : by_file) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer) {
      errors.push_back(file + ": cannot read it to insert gates: " + buffer.getError().message());
      continue;
    }
    const std::string code = (*buffer)->getBuffer().str();
    clang::tooling::Replacements replacements;
    int gates = 0;
    for (const Finding* finding : in_file) {
      const GateInsertion& insertion = finding->insertion;
      llvm::Error error = replacements.add(clang::tooling::Replacement(file, insertion.at.offset, 0, insertion.text));
      if (!error && !insertion.closing.empty()) {
        error = replacements.add(clang::tooling::Replacement(file, insertion.closing_at.offset, 0, insertion.closing));
      }
      if (error) {
        errors.push_back(file + ": the gate " + finding->gate + " overlaps another edit (" +
                         llvm::toString(std::move(error)) + "); insert it by hand");
        continue;
      }
      ++gates;
    }
    if (gates == 0) continue;
    if (!IncludesSimHeader(code)) {
      const unsigned offset = IncludeOffset(code);
      llvm::Error error = replacements.add(
          clang::tooling::Replacement(file, offset, 0, "#include <sim/sim.h>  // SIM_GATE (sim-gate-finder --fix)\n"));
      if (error) {
        errors.push_back(file + ": cannot add #include <sim/sim.h>: " + llvm::toString(std::move(error)));
        continue;
      }
    }
    llvm::Expected<std::string> fixed = clang::tooling::applyAllReplacements(code, replacements);
    if (!fixed) {
      errors.push_back(file + ": cannot apply the gates: " + llvm::toString(fixed.takeError()));
      continue;
    }
    std::error_code status;
    llvm::raw_fd_ostream out(file, status);
    if (status) {
      errors.push_back(file + ": cannot write it: " + status.message());
      continue;
    }
    out << *fixed;
    inserted += gates;
  }
  return inserted;
}

}  // namespace gate_finder
