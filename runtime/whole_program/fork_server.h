// fork_server.h: whole-program mode as a fork server for sim-run.
//
// Spawning a process per seed pays exec, the dynamic loader and static
// initialisation every time. sim-run instead starts the program once per job
// with SIM_OPTIONS=fork_server=FD (FD one end of an AF_UNIX SOCK_SEQPACKET
// pair); the program initialises once, reaches the main wrapper, and forks a
// child per request. The child returns from ServeForkRequests and goes on
// exactly as a process spawned with the request's SIM_OPTIONS would: same
// environment (the SIM_OPTIONS slot of environ now points at the request's
// value), stdin and stdout as the server had them, stderr on the request's
// file, a process group of its own, and the heap untouched since static
// initialisation, because the server allocates nothing (no malloc, no mmap,
// no stdio) between entering the main wrapper and forking.
//
// The protocol (one datagram per message: a request, then "started",
// "ended" or "refused") is common/fork_server_protocol.h, shared with
// sim-run. The server exits when sim-run closes its end. What a wait status
// means, timeouts and falling back to spawning are sim-run's business
// (tools/sim-run/fork_server.h).
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_FORK_SERVER_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_FORK_SERVER_H_

namespace sim::internal {

// When SIM_OPTIONS is exactly "fork_server=<fd>", serves requests on <fd>
// and returns only in a forked child, set up as above; the server process
// itself ends in here (_exit) when sim-run goes away. Returns at once, doing
// nothing, in any other process.
// Precondition: called on the main thread from the main wrapper, before
// anything there allocates.
void ServeForkRequestsIfAsked();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_FORK_SERVER_H_
