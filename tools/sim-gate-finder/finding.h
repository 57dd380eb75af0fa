// finding.h: one check-then-act window, as the analysis reports it and the
// output layers (text, JSON, fixes) print it.
//
// A Finding is plain data: file names, positions and texts are copied out of
// the AST, so findings outlive the translation unit they came from and can be
// merged across TUs (a header's window is seen once per TU that includes it).
#ifndef SIM_GATE_FINDER_FINDING_H_
#define SIM_GATE_FINDER_FINDING_H_

#include <string>
#include <vector>

namespace gate_finder {

// A point in a source file; line and column count from 1, offset from 0.
struct SourcePoint {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  unsigned offset = 0;

  bool operator<(const SourcePoint& other) const {
    return file != other.file ? file < other.file : offset < other.offset;
  }
  bool operator==(const SourcePoint& other) const { return file == other.file && offset == other.offset; }
};

// One end of a window: where, what it says, and the locks held there.
struct WindowEnd {
  SourcePoint at;
  std::string text;                // the expression, one line, shortened
  std::string function;            // the function it is in, when not the window's own
  std::vector<std::string> locks;  // "mutex_ (lock_guard, line 30)"; empty: no lock held
};

enum class Shape {
  kLazyInit,        // null/false test of X, then X is assigned
  kContainer,       // a query on container X (find, count, empty, ...), then a mutation with the same key
  kAtomicCheck,     // an atomic load tested, then a separate store or read-modify-write
  kSplitSection,    // X read, then written from the value read, the two not under one lock scope
  kFileTimeOfCheck  // access/stat of a path, then open/rename/unlink of the same path
};

// "lazy-init", "container", "atomic-check", "split-section", "file-toctou".
const char* ShapeId(Shape shape);
// "lazy initialisation", ...: the words the text report uses.
const char* ShapeWords(Shape shape);

// Where the gate goes: `text` inserted at `at`, and `closing` inserted at
// `closing_at` when the gate needs braces around a lone statement.
struct GateInsertion {
  SourcePoint at;
  std::string text;
  SourcePoint closing_at;
  std::string closing;  // empty: nothing to close
  bool possible = false;
  std::string not_possible_because;
  std::string existing_gate;  // the code already has SIM_GATE(existing_gate) there
};

struct Finding {
  Shape shape = Shape::kLazyInit;
  std::string object;  // "Database::pool_", "counter", the path expression
  WindowEnd check;
  WindowEnd act;
  std::string why;        // why it is a window: what lets a second caller in
  std::string repair;     // the idiomatic repair, as a hint
  std::string gate;       // the proposed gate name, lower-case dotted
  std::string gate_line;  // SIM_GATE("gate");
  GateInsertion insertion;
  std::string test;  // a SIM_TEST skeleton that holds the gate

  // What the test needs to call the function a second time.
  std::string class_name;      // empty for a free function
  std::string function_name;   // unqualified
  std::string call_arguments;  // "int{}, std::string{}"
  bool suppressed = false;     // reported only with --suppressed: both ends under one lock, or re-checked
};

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_FINDING_H_
