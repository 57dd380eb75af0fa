// gauntlet_main.cpp: one idiom of idioms.h as a whole program, named by its
// first argument (all of them with none); exits 1 when its check fails.
#include <csignal>
#include <cstdio>
#include <cstring>

#include "idioms.h"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // syscall_errno writes to a pipe with no reader
  bool all_passed = true;
  bool found = false;
  for (const gauntlet::Idiom& idiom : gauntlet::kIdioms) {
    if (argc > 1 && std::strcmp(argv[1], idiom.name) != 0) continue;
    found = true;
    if (!idiom.run()) {
      std::fprintf(stderr, "gauntlet: %s: wrong result\n", idiom.name);
      all_passed = false;
    }
  }
  if (!found) std::fprintf(stderr, "gauntlet: no idiom named %s\n", argv[1]);
  return found && all_passed ? 0 : 1;
}
