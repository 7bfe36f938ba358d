#!/usr/bin/env python3
"""Start-up: from starting `fakenft` on a pseudo-terminal to the catalog with its data on screen
("9 collections"), with the embedded server on an existing data folder and onboarding done.
Two kinds of terminal: one that answers the device attributes query (DA1) at once, and one that
never answers (tmux detached, a plain pty, many SSH set-ups). Then against `fakenft serve
--latency 300` (`--server`), drawn from what the previous start saw. Prints the median of RUNS
starts each.

    scripts/bench-startup.py BINARY [RUNS]
"""
import fcntl, os, pty, select, shutil, socket, statistics, struct, subprocess, sys, tempfile, termios, time

binary = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
base = tempfile.mkdtemp(prefix="fakenft-startup-")
env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", HOME=base,
           XDG_STATE_HOME=os.path.join(base, "state"), XDG_CONFIG_HOME=os.path.join(base, "config"),
           XDG_CACHE_HOME=os.path.join(base, "cache"), XDG_DATA_HOME=os.path.join(base, "share"))
for name in ("TMUX", "SWIFT_BACKTRACE", "KITTY_WINDOW_ID", "TERM_PROGRAM", "COLORFGBG"):
    env.pop(name, None)
DA1_QUERY, DA1_ANSWER = b"\x1b[c", b"\x1b[?62;22c"


def start(answers, first=False, arguments=None):
    """Milliseconds from the fork to the catalog with data (None: not within 10 s)."""
    arguments = arguments or ["--data", os.path.join(base, "data")]
    began = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(binary, [binary] + arguments, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen, took = b"", None
    while time.monotonic() - began < 10:
        if not select.select([fd], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        seen += chunk
        if answers and DA1_QUERY in chunk:
            os.write(fd, DA1_ANSWER)
        if first and b"Welcome to FakeNFT" in seen:      # the first start: past onboarding and the sign-in screen
            os.write(fd, b"s"); seen = b""
        if first and b"Continue without" in seen:
            os.write(fd, b"\x1b"); seen = b""
        if b"9 collections" in seen:
            took = (time.monotonic() - began) * 1000
            break
    os.write(fd, b"q")
    os.waitpid(pid, 0)
    os.close(fd)
    return took


start(answers=True, first=True)   # seeds the data folder and records onboarding
for answers, label in ((True, "a terminal that answers"), (False, "one that never answers")):
    times = [start(answers) for _ in range(runs)]
    done = [t for t in times if t is not None]
    median = statistics.median(done) if done else float("nan")
    print(f"{'start to the catalog, ' + label:<58} {median:.1f} ms, median of {len(done)}/{runs} starts "
          f"(target: 40 ms)")

with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
server = subprocess.Popen([binary, "serve", "--port", str(port), "--data", os.path.join(base, "served"),
                           "--latency", "300", "--quiet"], env=env, stdout=subprocess.DEVNULL)
try:
    time.sleep(1)
    remote = ["--server", f"http://127.0.0.1:{port}"]
    first = start(answers=True, first=True, arguments=remote)  # past the welcome; what it sees is kept
    times = [start(True, arguments=remote) for _ in range(runs)]
    done = [t for t in times if t is not None]
    median = statistics.median(done) if done else float("nan")
    print(f"{'start to the catalog, --latency 300, from the saved copy':<58} {median:.1f} ms, median of "
          f"{len(done)}/{runs} starts (target: 40 ms; without a saved copy: {first:.0f} ms)")
finally:
    server.terminate()
    server.wait()
shutil.rmtree(base, ignore_errors=True)
