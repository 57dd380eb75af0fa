// child_environment.h: the environment a process of the user's program is
// started with: this process's own, with SIM_OPTIONS replaced. Header-only:
// sim-run (its seeds and fork servers) and libsimrt (whole-program mode's
// candidate server) build it the same way.
#ifndef SIM_COMMON_CHILD_ENVIRONMENT_H_
#define SIM_COMMON_CHILD_ENVIRONMENT_H_

#include <unistd.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sim::common {

class ChildEnvironment {
 public:
  explicit ChildEnvironment(std::string_view sim_options) : options_("SIM_OPTIONS=" + std::string(sim_options)) {
    // __environ, glibc's reserved name: a user global named `environ` (in a
    // program the runtime is linked into) cannot replace it.
    for (char** entry = __environ; *entry != nullptr; ++entry) {
      if (std::strncmp(*entry, "SIM_OPTIONS=", 12) != 0) entries_.push_back(*entry);
    }
    entries_.push_back(options_.data());
    entries_.push_back(nullptr);
  }
  ChildEnvironment(const ChildEnvironment&) = delete;
  ChildEnvironment& operator=(const ChildEnvironment&) = delete;

  // For posix_spawn; points into this process's environment, which must not
  // change while it is in use.
  char** envp() { return entries_.data(); }

 private:
  std::string options_;
  std::vector<char*> entries_;
};

}  // namespace sim::common

#endif  // SIM_COMMON_CHILD_ENVIRONMENT_H_
