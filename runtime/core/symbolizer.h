// symbolizer.h: one symbolizer process per process (tools/sim-symbolizer,
// else llvm-symbolizer), for the life of the process, and every answer it
// gave kept.
//
// Starting a symbolizer can cost more than a small execution
// (llvm-symbolizer loads libLLVM: about 0.1 s; sim-symbolizer about 10 ms;
// then the program's debug information, tens of ms), and a report
// names its sites in several passes (the race's callers, where each thread
// was created, the global, the threads at failure), each a SiteNamer of its
// own. TSan keeps one symbolizer process and asks it line by line; so does
// this. SiteNamer (site.h) decides what to ask and reads the answers.
#ifndef SIM_RUNTIME_CORE_SYMBOLIZER_H_
#define SIM_RUNTIME_CORE_SYMBOLIZER_H_

#include <cstddef>
#include <string>

namespace sim::internal {

// llvm-symbolizer's answers to `queries`, one query per line ("\"module\"
// 0xoffset", or "DATA \"module\" 0xoffset"), each answer ending in an empty
// line as llvm-symbolizer writes it; "" when no symbolizer can be run (none
// installed: SIM_SYMBOLIZER names one). A query asked before in this process
// is answered from what was kept. A forked child starts a symbolizer of its
// own at its first query rather than share its parent's.
std::string Symbolize(const std::string& queries);

// Writes `queries` (as Symbolize takes them) to this process's symbolizer,
// started if it is not running, without waiting for the answers: it loads
// the debug information they need while this process goes on (a whole
// program's failure is shrunk by rerunning it meanwhile). Their answers are
// read, and kept, by the next Symbolize or ReadAnswersAskedAhead. At most
// kQueriesAskedAhead are written; the rest are dropped.
void AskAhead(const std::string& queries);
inline constexpr std::size_t kQueriesAskedAhead = 64;
// Reads the answers AskAhead is owed. Before lending the symbolizer: the
// borrower would read them as its own.
void ReadAnswersAskedAhead();

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
