// symbolizer.h: one llvm-symbolizer process per process, for the life of
// the process, and every answer it gave kept.
//
// Starting llvm-symbolizer costs more than a small execution (it loads
// libLLVM and the program's debug information: 0.1-0.3 s), and a report
// names its sites in several passes (the race's callers, where each thread
// was created, the global, the threads at failure), each a SiteNamer of its
// own. TSan keeps one symbolizer process and asks it line by line; so does
// this. SiteNamer (site.h) decides what to ask and reads the answers.
#ifndef SIM_RUNTIME_CORE_SYMBOLIZER_H_
#define SIM_RUNTIME_CORE_SYMBOLIZER_H_

#include <string>

namespace sim::internal {

// llvm-symbolizer's answers to `queries`, one query per line ("\"module\"
// 0xoffset", or "DATA \"module\" 0xoffset"), each answer ending in an empty
// line as llvm-symbolizer writes it; "" when no symbolizer can be run (none
// installed: SIM_SYMBOLIZER names one). A query asked before in this process
// is answered from what was kept. A forked child starts a symbolizer of its
// own at its first query rather than share its parent's.
std::string Symbolize(const std::string& queries);

// Lending the symbolizer to one later process, so that telling a whole
// program's failure starts it once, not once more in the rerun that tells
// it (whole_program/rerun.h): a process that has a symbolizer running hands
// its socket to the processes it starts as kLentSymbolizerFd
// (LentSymbolizerSocket), and asks it nothing while the one told to use it
// (lent_symbolizer=2) runs; that one asks it instead of starting its own
// (UseLentSymbolizer), and its debug information is loaded already. Only
// one process at a time may ask a symbolizer: an answer read by another is
// lost to the asker.
inline constexpr int kLentSymbolizerFd = 199;
// This process's symbolizer's socket, or -1 when it has none running.
int LentSymbolizerSocket();
// In a process told to: ask the symbolizer at `fd` (which the lender keeps
// and ends); an fd that is not open is ignored.
void UseLentSymbolizer(int fd);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_SYMBOLIZER_H_
