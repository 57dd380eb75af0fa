// sim-gate-finder: finds check-then-act windows in C++ sources and proposes,
// for each, the SIM_GATE line that names it and a SIM_TEST that holds it.
//
// It runs like clang-tidy: over the files of a compile_commands.json
// (`-p build-dir`, every file when none is named) or over files given with
// their flags after `--`. Each translation unit is parsed with the clang 19
// libraries; the functions defined in its main file and in the headers it
// includes (not system headers, unless --header-filter names them) are
// handed to the window finder (window_finder.h). A header seen by several
// units is reported once. Units are parsed on -j threads.
//
// What it leaves to other layers: the shapes and their suppressions are
// window_finder.cpp's, the lock scopes lock_state.cpp's, which objects are
// shared shared_objects.cpp's, names and tests gate_proposal.cpp's, the
// formats report_output.cpp's and --fix gate_fixes.cpp's.
#include <algorithm>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include "clang/AST/ASTConsumer.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "finding.h"
#include "gate_fixes.h"
#include "gate_proposal.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "report_output.h"
#include "shared_objects.h"
#include "source_text.h"
#include "window_finder.h"

namespace {

using namespace clang::ast_matchers;

llvm::cl::OptionCategory gate_finder_category("sim-gate-finder options");

llvm::cl::extrahelp common_help(clang::tooling::CommonOptionsParser::HelpMessage);
llvm::cl::extrahelp more_help(R"(
Finds check-then-act windows (lazy initialisation, find-then-insert on a
container, a check and its act in two lock scopes, access()/stat() then
open()) and proposes a gate for each: its name, the SIM_GATE line and a
SIM_TEST skeleton that holds it. Windows whose two ends hold one lock scope,
that re-check under the act's lock, or that act with a compare-exchange are
not reported (--suppressed shows them).

  sim-gate-finder -p build src/registry.cpp     files of a compile_commands.json
  sim-gate-finder -p build                      every file it lists
  sim-gate-finder lazy.cpp -- -std=c++20 -I.    files and flags, no database
  sim-gate-finder --format=json ...             one JSON array
  sim-gate-finder --fix ...                     insert the SIM_GATE lines
)");

llvm::cl::opt<std::string> format_option("format", llvm::cl::desc("Output format: text (default) or json"),
                                         llvm::cl::init("text"), llvm::cl::cat(gate_finder_category));
llvm::cl::opt<bool> fix_option("fix", llvm::cl::desc("Insert the proposed SIM_GATE lines into the sources"),
                               llvm::cl::cat(gate_finder_category));
llvm::cl::opt<bool> suppressed_option(
    "suppressed",
    llvm::cl::desc("Also list the windows suppressed by a lock or a re-check (as notes), and with --fix gate them "
                   "too: the same SIM_TEST can then run against the fixed code"),
    llvm::cl::cat(gate_finder_category));
llvm::cl::opt<std::string> header_filter_option(
    "header-filter",
    llvm::cl::desc("Regular expression: functions in headers whose path matches are analysed even in system "
                   "headers (by default: the main files and the headers outside system directories)"),
    llvm::cl::init(""), llvm::cl::cat(gate_finder_category));
llvm::cl::opt<unsigned> jobs_option("j", llvm::cl::desc("Translation units parsed at once (default: the cores)"),
                                    llvm::cl::init(0), llvm::cl::Prefix, llvm::cl::cat(gate_finder_category));

// Collects the functions to analyse while the matchers run, then analyses
// them at the end of the unit, once it is known whether the unit starts threads.
class UnitAnalysis : public MatchFinder::MatchCallback {
 public:
  UnitAnalysis(std::vector<gate_finder::Finding>& findings, const std::regex* header_filter)
      : findings_(findings), header_filter_(header_filter) {}

  void run(const MatchFinder::MatchResult& result) override {
    context_ = result.Context;
    if (result.Nodes.getNodeAs<clang::Stmt>("thread_start") != nullptr) {
      starts_threads_ = true;
      return;
    }
    const auto* function = result.Nodes.getNodeAs<clang::FunctionDecl>("function");
    if (function == nullptr || !Wanted(function, *result.SourceManager)) return;
    functions_.push_back(function);
  }

  void onEndOfTranslationUnit() override {
    if (context_ == nullptr) return;
    const gate_finder::SharedObjects shared(starts_threads_);
    for (const clang::FunctionDecl* function : functions_)
      gate_finder::FindWindows(function, *context_, shared, findings_);
  }

 private:
  bool Wanted(const clang::FunctionDecl* function, const clang::SourceManager& sources) const {
    const clang::SourceLocation location = sources.getExpansionLoc(function->getLocation());
    if (location.isInvalid()) return false;
    if (sources.isInMainFile(location)) return true;
    if (header_filter_ != nullptr) {
      const std::string file = sources.getFilename(location).str();
      return std::regex_search(file, *header_filter_);
    }
    return !sources.isInSystemHeader(location);
  }

  std::vector<gate_finder::Finding>& findings_;
  const std::regex* header_filter_;
  clang::ASTContext* context_ = nullptr;
  bool starts_threads_ = false;
  std::vector<const clang::FunctionDecl*> functions_;
};

// The matchers' consumer, limited to what a window can be reported in: not
// the system headers, unless the filter names them. Most of a unit is
// libstdc++: its function bodies are skipped (Sema still parses those it
// needs: constexpr functions and deduced return types), and the matchers do
// not walk its declarations.
class SkippingConsumer : public clang::ASTConsumer {
 public:
  SkippingConsumer(std::unique_ptr<clang::ASTConsumer> inner, const clang::SourceManager& sources,
                   const std::regex* header_filter)
      : inner_(std::move(inner)), sources_(sources), header_filter_(header_filter) {}

  void Initialize(clang::ASTContext& context) override { inner_->Initialize(context); }

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl* declaration : group) {
      if (!Skipped(declaration)) wanted_.push_back(declaration);
    }
    return inner_->HandleTopLevelDecl(group);
  }

  // The matchers then walk the program's own declarations only, as clangd
  // walks only the main file's.
  void HandleTranslationUnit(clang::ASTContext& context) override {
    context.setTraversalScope(wanted_);
    inner_->HandleTranslationUnit(context);
  }

  bool shouldSkipFunctionBody(clang::Decl* declaration) override { return Skipped(declaration); }

 private:
  bool Skipped(const clang::Decl* declaration) const {
    const clang::SourceLocation location = sources_.getExpansionLoc(declaration->getLocation());
    if (location.isInvalid() || !sources_.isInSystemHeader(location)) return false;
    if (header_filter_ == nullptr) return true;
    return !std::regex_search(sources_.getFilename(location).str(), *header_filter_);
  }

 private:
  std::unique_ptr<clang::ASTConsumer> inner_;
  const clang::SourceManager& sources_;
  const std::regex* header_filter_;
  std::vector<clang::Decl*> wanted_;
};

class UnitAction : public clang::ASTFrontendAction {
 public:
  UnitAction(std::vector<gate_finder::Finding>& findings, const std::regex* header_filter)
      : header_filter_(header_filter), analysis_(findings, header_filter) {
    finder_.addMatcher(functionDecl(isDefinition(), unless(isInstantiated()), unless(isImplicit())).bind("function"),
                       &analysis_);
    // Only the program's own thread starts: libstdc++'s headers start
    // threads too (gthr-posix.h calls pthread_create), in every unit.
    finder_.addMatcher(
        cxxConstructExpr(unless(isExpansionInSystemHeader()),
                         hasDeclaration(cxxConstructorDecl(ofClass(hasAnyName("::std::thread", "::std::jthread")))))
            .bind("thread_start"),
        &analysis_);
    finder_.addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                                callee(functionDecl(hasAnyName("::std::async", "::pthread_create"))))
                           .bind("thread_start"),
                       &analysis_);
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& compiler, llvm::StringRef) override {
    compiler.getFrontendOpts().SkipFunctionBodies = true;
    return std::make_unique<SkippingConsumer>(finder_.newASTConsumer(), compiler.getSourceManager(), header_filter_);
  }

 private:
  const std::regex* header_filter_;
  UnitAnalysis analysis_;
  MatchFinder finder_;
};

class UnitActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  UnitActionFactory(std::vector<gate_finder::Finding>& findings, const std::regex* header_filter)
      : findings_(findings), header_filter_(header_filter) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<UnitAction>(findings_, header_filter_);
  }

 private:
  std::vector<gate_finder::Finding>& findings_;
  const std::regex* header_filter_;
};

// Flags of simthread's own wrapper mean nothing to clang, and the built-in
// headers are found next to clang-19, not next to this binary.
clang::tooling::ArgumentsAdjuster SimthreadAdjuster() {
  return [](const clang::tooling::CommandLineArguments& arguments, llvm::StringRef) {
    clang::tooling::CommandLineArguments adjusted;
    for (const std::string& argument : arguments) {
      if (argument.rfind("-fsim-", 0) == 0 || argument.rfind("--sim-", 0) == 0 ||
          argument == "-fno-sim-whole-program" || argument.rfind("-fpass-plugin", 0) == 0) {
        continue;
      }
      adjusted.push_back(argument);
    }
    const char* resource_dir = std::getenv("SIM_GATE_FINDER_RESOURCE_DIR");
    // After the compiler's name, before any `--` that ends the options; -w:
    // the program's own warnings are not this tool's.
    adjusted.insert(adjusted.begin() + std::min<std::size_t>(1, adjusted.size()),
                    {std::string("-resource-dir=") + (resource_dir != nullptr ? resource_dir : SIM_CLANG_RESOURCE_DIR),
                     "-w"});
    return adjusted;
  };
}

struct FindingKey {
  std::string check_file, act_file;
  unsigned check_offset, act_offset;
  std::string object;
  bool operator<(const FindingKey& other) const {
    return std::tie(check_file, check_offset, act_file, act_offset, object) <
           std::tie(other.check_file, other.check_offset, other.act_file, other.act_offset, other.object);
  }
};

// One finding per window, however many units saw it; a window is suppressed
// only if every unit that saw it suppressed it.
std::vector<gate_finder::Finding> Merge(std::vector<gate_finder::Finding> all) {
  std::map<FindingKey, gate_finder::Finding> unique;
  for (gate_finder::Finding& finding : all) {
    FindingKey key{finding.check.at.file, finding.act.at.file, finding.check.at.offset, finding.act.at.offset,
                   finding.object};
    auto [it, inserted] = unique.emplace(key, finding);
    if (!inserted && !finding.suppressed) it->second = std::move(finding);
  }
  std::vector<gate_finder::Finding> merged;
  for (auto& [key, finding] : unique) merged.push_back(std::move(finding));
  return merged;
}

// Windows of two functions that would share a gate get the function's name
// appended: a test holding one must not park callers of the other. Two
// windows in one function keep one name, so the gate of a fixed version
// (seen with --suppressed) is the buggy version's.
void NameGates(std::vector<gate_finder::Finding>& findings) {
  std::map<std::string, std::set<std::string>> functions_by_gate;
  for (const gate_finder::Finding& finding : findings) {
    functions_by_gate[finding.gate].insert(finding.class_name + "::" + finding.function_name);
  }
  for (gate_finder::Finding& finding : findings) {
    const std::string proposed = gate_finder::GateLine(finding.gate);
    if (functions_by_gate[finding.gate].size() > 1 && finding.insertion.existing_gate.empty()) {
      finding.gate += "." + gate_finder::SnakeCase(finding.function_name);
    }
    finding.gate_line = gate_finder::GateLine(finding.gate);
    if (const std::size_t at = finding.insertion.text.find(proposed); at != std::string::npos) {
      finding.insertion.text.replace(at, proposed.size(), finding.gate_line);
    }
    // Without a gate at the window, a test that holds one would wait forever.
    if (finding.insertion.possible || !finding.insertion.existing_gate.empty()) {
      finding.test = gate_finder::TestSkeleton(finding);
    }
  }
}

}  // namespace

int main(int argc, const char** argv) {
  llvm::Expected<clang::tooling::CommonOptionsParser> options =
      clang::tooling::CommonOptionsParser::create(argc, argv, gate_finder_category, llvm::cl::ZeroOrMore);
  if (!options) {
    llvm::errs() << "sim-gate-finder: " << llvm::toString(options.takeError())
                 << "\nsim-gate-finder: give -p <build dir with compile_commands.json> (CMake: "
                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON), or the files followed by `--` and their flags\n";
    return 2;
  }
  if (format_option != "text" && format_option != "json") {
    llvm::errs() << "sim-gate-finder: --format=" << format_option << " is not a format: use text or json\n";
    return 2;
  }
  std::unique_ptr<std::regex> header_filter;
  if (!header_filter_option.empty()) {
    try {
      header_filter = std::make_unique<std::regex>(header_filter_option.getValue());
    } catch (const std::regex_error& error) {
      llvm::errs() << "sim-gate-finder: --header-filter=" << header_filter_option
                   << " is not a regular expression: " << error.what() << "\n";
      return 2;
    }
  }
  std::vector<std::string> files = options->getSourcePathList();
  // With no file named, CommonOptionsParser loads no database: load the
  // one -p names and take every file it lists, as run-clang-tidy does.
  std::unique_ptr<clang::tooling::CompilationDatabase> every_file_database;
  if (files.empty()) {
    std::string build_dir;
    for (int i = 1; i < argc; ++i) {
      const std::string argument = argv[i];
      if (argument == "--") break;
      if ((argument == "-p" || argument == "--p") && i + 1 < argc) build_dir = argv[i + 1];
      if (argument.rfind("-p=", 0) == 0 || argument.rfind("--p=", 0) == 0)
        build_dir = argument.substr(argument.find('=') + 1);
    }
    if (!build_dir.empty()) {
      std::string error;
      every_file_database = clang::tooling::CompilationDatabase::autoDetectFromDirectory(build_dir, error);
      if (every_file_database == nullptr) {
        llvm::errs() << "sim-gate-finder: " << error << "\n";
        return 2;
      }
      files = every_file_database->getAllFiles();
    }
  }
  const clang::tooling::CompilationDatabase& database =
      every_file_database != nullptr ? *every_file_database : options->getCompilations();
  if (files.empty()) {
    llvm::errs() << "sim-gate-finder: no files to analyse: name them, or give -p a build directory whose "
                    "compile_commands.json lists some\n";
    return 2;
  }

  const unsigned jobs =
      std::max(1u, std::min<unsigned>(jobs_option != 0 ? jobs_option : std::thread::hardware_concurrency(),
                                      static_cast<unsigned>(files.size())));
  std::vector<std::vector<gate_finder::Finding>> per_job(jobs);
  std::vector<int> statuses(jobs, 0);
  std::vector<std::thread> workers;
  for (unsigned job = 0; job < jobs; ++job) {
    workers.emplace_back([&, job] {
      std::vector<std::string> shard;
      for (std::size_t i = job; i < files.size(); i += jobs) shard.push_back(files[i]);
      // Each job its own file system: ClangTool changes the working
      // directory per command, and the real file system's is the process's.
      clang::tooling::ClangTool tool(database, shard,
                                     std::make_shared<clang::PCHContainerOperations>(),
                                     llvm::vfs::createPhysicalFileSystem());
      tool.appendArgumentsAdjuster(SimthreadAdjuster());
      UnitActionFactory factory(per_job[job], header_filter.get());
      statuses[job] = tool.run(&factory);
    });
  }
  for (std::thread& worker : workers) worker.join();

  std::vector<gate_finder::Finding> all;
  for (std::vector<gate_finder::Finding>& findings : per_job) {
    for (gate_finder::Finding& finding : findings) all.push_back(std::move(finding));
  }
  std::vector<gate_finder::Finding> findings = Merge(std::move(all));
  NameGates(findings);
  if (!suppressed_option) std::erase_if(findings, [](const gate_finder::Finding& f) { return f.suppressed; });

  llvm::outs() << (format_option == "json" ? gate_finder::RenderJson(findings) : gate_finder::RenderText(findings));
  int status = *std::max_element(statuses.begin(), statuses.end()) != 0 ? 1 : 0;
  if (status != 0) {
    llvm::errs() << "sim-gate-finder: some files could not be parsed (clang's errors above), so their windows are "
                    "missing: check the files exist and that -p names the build directory of their "
                    "compile_commands.json, or give their flags after --\n";
  }
  if (fix_option) {
    std::vector<std::string> errors;
    const int inserted = gate_finder::ApplyGates(findings, errors);
    for (const std::string& error : errors) llvm::errs() << "sim-gate-finder: " << error << "\n";
    llvm::outs() << "sim-gate-finder: inserted " << inserted << (inserted == 1 ? " gate\n" : " gates\n");
    if (!errors.empty()) status = 1;
  }
  return status;
}
