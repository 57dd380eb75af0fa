// report_output.cpp: text and JSON (report_output.h).
#include "report_output.h"

#include "gate_proposal.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gate_finder {
namespace {

std::string Where(const SourcePoint& point) {
  return point.file + ":" + std::to_string(point.line) + ":" + std::to_string(point.column);
}

std::string Locks(const std::vector<std::string>& locks) {
  if (locks.empty()) return "none";
  std::string joined;
  for (const std::string& lock : locks) joined += (joined.empty() ? "" : ", ") + lock;
  return joined;
}

std::string Indented(const std::string& text, const std::string& indent) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += indent + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

llvm::json::Object End(const WindowEnd& end) {
  llvm::json::Array locks;
  for (const std::string& lock : end.locks) locks.push_back(lock);
  llvm::json::Object object{{"file", end.at.file},   {"line", end.at.line},       {"column", end.at.column},
                            {"text", end.text},      {"locks", std::move(locks)}};
  if (!end.function.empty()) object["function"] = end.function;
  return object;
}

}  // namespace

std::string RenderText(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& finding : findings) {
    out += Where(finding.check.at) + ": " + (finding.suppressed ? "note" : "warning") + ": " +
           (finding.suppressed ? "not a window: " : "check-then-act window on ") + finding.object + " (" +
           ShapeWords(finding.shape) + ") [sim-gate-finder:" + ShapeId(finding.shape) + "]\n";
    out += "  check: " + Where(finding.check.at) + " `" + finding.check.text + "`" +
           (finding.check.function.empty() ? "" : " in " + finding.check.function) +
           "; locks held: " + Locks(finding.check.locks) + "\n";
    out += "  act:   " + Where(finding.act.at) + " `" + finding.act.text + "`" +
           (finding.act.function.empty() ? "" : " in " + finding.act.function) +
           "; locks held: " + Locks(finding.act.locks) + "\n";
    out += "  why:   " + finding.why + "\n";
    if (finding.suppressed) continue;
    out += "  fix:   " + finding.repair + "\n";
    out += "  gate:  " + finding.gate + "\n";
    if (finding.insertion.possible) {
      out += "  insert at " + Where(finding.insertion.at) + ": " + finding.gate_line + "\n";
    } else if (!finding.insertion.existing_gate.empty()) {
      out += "  gated already: " + finding.gate_line + "\n";
    } else {
      out += "  no gate can be inserted: " + finding.insertion.not_possible_because + "\n";
    }
    if (!finding.test.empty()) out += "  test:\n" + Indented(finding.test, "    ");
  }
  std::size_t windows = 0;
  for (const Finding& finding : findings) windows += finding.suppressed ? 0 : 1;
  out += "sim-gate-finder: " + std::to_string(windows) + (windows == 1 ? " window" : " windows");
  if (windows != findings.size()) out += ", " + std::to_string(findings.size() - windows) + " suppressed";
  out += "\n";
  return out;
}

std::string RenderJson(const std::vector<Finding>& findings) {
  llvm::json::Array array;
  for (const Finding& finding : findings) {
    llvm::json::Object object{{"shape", ShapeId(finding.shape)},
                              {"object", finding.object},
                              {"check", End(finding.check)},
                              {"act", End(finding.act)},
                              {"why", finding.why},
                              {"suppressed", finding.suppressed},
                              {"fix", finding.repair},
                              {"gate", finding.gate},
                              {"gate_line", finding.gate_line},
                              {"test", finding.test}};
    if (finding.insertion.possible) {
      object["insert_at"] = llvm::json::Object{{"file", finding.insertion.at.file},
                                               {"line", finding.insertion.at.line},
                                               {"column", finding.insertion.at.column}};
    } else {
      object["insert_at"] = nullptr;
      object["insert_not_possible"] = finding.insertion.not_possible_because;
    }
    array.push_back(std::move(object));
  }
  std::string out;
  llvm::raw_string_ostream stream(out);
  stream << llvm::formatv("{0:2}", llvm::json::Value(std::move(array))) << "\n";
  return out;
}

}  // namespace gate_finder
