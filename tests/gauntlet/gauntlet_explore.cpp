// gauntlet_explore.cpp: one idiom of idioms.h (named by the first argument)
// under sim::explore for as many seeds as the second says, with the race
// detector on and SIM_OPTIONS's tls_switch mode; exits 1 with the report of
// the first failing seed.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "idioms.h"
#include "sim/sim.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gauntlet_explore IDIOM SEEDS\n");
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);  // syscall_errno writes to a pipe with no reader
  for (const gauntlet::Idiom& idiom : gauntlet::kIdioms) {
    if (std::strcmp(argv[1], idiom.name) != 0) continue;
    const std::uint64_t seeds = std::strtoull(argv[2], nullptr, 10);
    const std::optional<sim::Report> report = sim::explore(
        [&] {
          if (!idiom.run()) sim::fail(std::string(idiom.name) + ": wrong result");
        },
        {.seeds = seeds});
    if (report) {
      std::fprintf(stderr, "%s", report->render().c_str());
      return 1;
    }
    std::printf("explore: %llu seeds passed\n", static_cast<unsigned long long>(seeds));
    return 0;
  }
  std::fprintf(stderr, "gauntlet_explore: no idiom named %s\n", argv[1]);
  return 2;
}
