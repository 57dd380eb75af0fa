// check.cpp: Die and failed SIM_CHECKs (check.h says why no stdio, no abort).
#include "core/check.h"

#include <unistd.h>

#include <charconv>

namespace sim::internal {
namespace {

void WriteToStderr(std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = write(STDERR_FILENO, text.data(), text.size());
    if (written <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace

void Die(int status, std::initializer_list<std::string_view> parts) {
  WriteToStderr("simthread: ");
  for (std::string_view part : parts) WriteToStderr(part);
  WriteToStderr("\n");
  _exit(status);
}

void DieOnFailedCheck(const char* what_failed, const char* message, const char* file, int line) {
  char line_text[16];
  const char* end = std::to_chars(line_text, line_text + sizeof line_text, line).ptr;
  const std::string_view at(line_text, static_cast<std::size_t>(end - line_text));
  if (what_failed == nullptr) {
    Die(exit_status::kEnvironment,
        {"internal error: ", message, " (", file, ":", at, " was reached): a bug in simthread"});
  }
  Die(exit_status::kEnvironment,
      {"internal error: ", message, " (", what_failed, " is false at ", file, ":", at, "): a bug in simthread"});
}

}  // namespace sim::internal
