// suppressions.h: which races not to report, in ThreadSanitizer's
// suppressions file format, so that a file written for TSan works as it is.
//
// One suppression a line, `type:pattern`; `#` starts a comment, blank
// lines are skipped. `race:` (and `race_top:`, the same here, since a race
// names one frame per access) suppresses a race when either access's
// function or file matches the pattern. TSan's other types (thread, mutex,
// signal, deadlock, called_from_lib) suppress reports simthread does not
// make, and are skipped. A pattern matches as TSan's do: `*` is any run of
// characters, a leading `^` and a trailing `$` anchor it, and otherwise it
// may match anywhere inside the name.
#ifndef SIM_RUNTIME_RACE_SUPPRESSIONS_H_
#define SIM_RUNTIME_RACE_SUPPRESSIONS_H_

#include <string>
#include <string_view>
#include <vector>

namespace sim::internal {

bool SuppressionPatternMatches(std::string_view pattern, std::string_view name);

class RaceSuppressions {
 public:
  // Parses a file's text. On a line it cannot take, `error` names the line
  // and what is wrong with it, and nothing is suppressed.
  static RaceSuppressions Parse(std::string_view text, std::string& error);

  // The first pattern that `function` or `file` matches, or null.
  const std::string* Match(std::string_view function, std::string_view file) const;
  bool empty() const { return patterns_.empty(); }

 private:
  std::vector<std::string> patterns_;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_RACE_SUPPRESSIONS_H_
