// standby_server.h: a fork server that a process run by hand makes for
// itself before main, in case it has to run its program again.
//
// A failing seed reruns its program (the determinism check, shrinking, a
// race's flips, the told run) through a fork server (candidate_server.h).
// Spawned when the failure is found, that server paid exec, the dynamic
// loader, static initialisation and the donors again before its first
// candidate: about a sixth of a race's whole report. But the process
// itself stood, just before main, exactly where a server waits for
// requests. So it forks a copy of itself there: the copy serves (the
// protocol of fork_server.h) and costs the process only the fork and the
// copy-on-write of the pages it then writes.
//
// The copy is a grandchild (its parent exits at once): the program's own
// wait() for any child never sees it, and it is not killed with a parent
// that is gone; it exits when the process closes its end, however that
// ends. Its stdin, stdout and stderr are /dev/null, as a spawned server's.
// The process's symbolizer, started later, goes with each request
// (fork_server_protocol.h).
//
// Only a process run by hand makes one: not a fork server's child (sim-run
// sweeps many seeds, and few fail), not a candidate (it never reruns), not
// a process with threads besides main (a fork would copy only main; the
// spawned server refuses it too), and only with address randomisation off
// (start_main.cpp's re-exec): a copy has the process's own addresses, which
// a fresh process has only then, and the determinism check reruns the seed
// to find a run that depends on them.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_STANDBY_SERVER_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_STANDBY_SERVER_H_

#include <sys/types.h>

#include <optional>

namespace sim::internal {

// Forks the standby server, when this process should have one. Returns in
// this process and, with true, in each candidate the server forks.
// Precondition: as ServeForkRequests' (fork_server.h), and this process was
// not forked by a fork server.
bool ForkStandbyServerIfWanted();

struct StandbyServer {
  pid_t pid = -1;   // not this process's child
  int socket = -1;  // this process's end, close-on-exec
};

// The standby server, to the first caller only (a server serves one
// candidate at a time); nullopt when there is none or it was taken.
std::optional<StandbyServer> TakeStandbyServer();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_STANDBY_SERVER_H_
