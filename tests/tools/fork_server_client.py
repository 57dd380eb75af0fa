"""fork_server_client.py PROG OUT_DIR SEED...: drives PROG's fork server
(common/fork_server_protocol.h) as sim-run does, without sim-run.

Starts PROG once with SIM_OPTIONS=fork_server=3, asks for each SEED with
SIM_OPTIONS=seed=SEED[:$SEED_OPTIONS]:report_json=OUT_DIR/fork-SEED.json and
stderr on OUT_DIR/fork-SEED.stderr, and prints "SEED <exit code or -signal>"
per seed. Exits 1 when the server refuses or goes away.
"""
import os
import socket
import subprocess
import sys


def main():
    program, out_dir, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    environment = {k: v for k, v in os.environ.items() if k != "SIM_OPTIONS"}
    environment["SIM_OPTIONS"] = "fork_server=3"
    server = subprocess.Popen(
        [program], env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, close_fds=False,  # our fds are close-on-exec; the dup2'd 3 is not
        preexec_fn=lambda: os.dup2(theirs.fileno(), 3))
    theirs.close()
    extra = os.environ.get("SEED_OPTIONS", "")
    for seed in seeds:
        options = f"seed={seed}" + (f":{extra}" if extra else "")
        request = f"{options}:report_json={out_dir}/fork-{seed}.json\0{out_dir}/fork-{seed}.stderr"
        ours.send(request.encode())
        started = ours.recv(512).decode()
        if not started.startswith("started "):
            print(f"server said {started!r} for seed {seed}")
            return 1
        ended = ours.recv(512).decode().split()
        if len(ended) != 3 or ended[0] != "ended" or ended[1] != started.split()[1]:
            print(f"server said {ended!r} after {started!r} for seed {seed}")
            return 1
        status = int(ended[2])
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        print(seed, code)
    ours.close()
    if server.wait(timeout=30) != 0:
        print(f"server exited with {server.returncode}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
