#!/usr/bin/env python3
"""The shop over SSH (`fakenft serve --ssh-port`) beside the set-up a user would otherwise make:
OpenSSH's sshd on a port of its own with `ForceCommand` running the same app against the same
server. OpenSSH's client on a pseudo-terminal of 80x24 visits both, in the same run:

  - connect to the first frame with the catalog (a returning visitor; median of RUNS);
  - a key to its echo (`j`, the selection moving), over each and with the app run locally, the
    sides' keys in turn;
  - a command (`ssh host nft 1 --json`) start to exit, cold and over one multiplexed connection,
    beside `ssh host true` against a plain sshd, and `fakenft nft 1 --json --server` locally;
  - resident memory per idle session (proportional: a page shared by N processes counts 1/N in
    each), the app's and the server's share, and the CPU of 50 idle sessions over 10 s (each way);
  - how many sessions this machine holds with each still answering a key within 100 ms;
  - fairness: four sessions each sent 400 KB of keys, another visitor's tab switch (p99), and `q`
    after such a flood ending its session.

    scripts/bench-ssh.py BINARY [RUNS] [MOST_SESSIONS]
"""
import fcntl, getpass, os, pty, re, select, shutil, signal, socket, statistics, struct, subprocess, sys, tempfile, termios
import threading, time

binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
most = int(sys.argv[3]) if len(sys.argv) > 3 else 200
base = tempfile.mkdtemp(prefix="fakenft-ssh-bench-")
DA1_QUERY, DA1_ANSWER = b"\x1b[c", b"\x1b[?62;22c"
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def children(pid):
    """Every descendant of `pid`."""
    found, queue = [], [pid]
    while queue:
        parent = queue.pop()
        kids = []
        try:
            for task in os.listdir(f"/proc/{parent}/task"):  # a child is its spawning thread's
                with open(f"/proc/{parent}/task/{task}/children") as listing:
                    kids += [int(k) for k in listing.read().split()]
        except OSError:
            pass
        found += kids
        queue += kids
    return found


def memory_kib(pid, field="Pss"):
    """A process's `field` of /proc/PID/smaps_rollup: Pss (its resident pages, each shared one
    divided among those that map it), Private_Dirty (its own), Rss."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


class Session:
    """A terminal of 80x24 running `command`, answering the terminal probe as a terminal would."""

    def __init__(self, command, env=None):
        self.began = time.monotonic()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the size first: ssh sends it as it starts
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.execvpe(command[0], command, env or os.environ)
        self.seen = b""

    def read(self, timeout):
        if not select.select([self.fd], [], [], timeout)[0]:
            return b""
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return b""
        if DA1_QUERY in chunk:
            os.write(self.fd, DA1_ANSWER)
        self.seen = (self.seen + chunk)[-200_000:]
        return chunk

    def wait_for(self, text, timeout=30, welcome=False):
        """Milliseconds from the start to `text` on screen (None: not within `timeout`)."""
        while time.monotonic() - self.began < timeout:
            self.read(0.2)
            plain = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", self.seen)
            if welcome and b"Welcome to FakeNFT" in plain:
                os.write(self.fd, b"s")
                self.seen = b""
            if welcome and b"Continue without" in plain:
                os.write(self.fd, b"\x1b")
                self.seen = b""
            if text in plain:
                return (time.monotonic() - self.began) * 1000
        return None

    def drain(self):
        while self.read(0):
            pass

    def echo_ms(self, key=b"j"):
        """Milliseconds from a key to the first byte of its redraw."""
        self.drain()
        sent = time.monotonic()
        os.write(self.fd, key)
        while time.monotonic() - sent < 5:
            if self.read(0.5):
                return (time.monotonic() - sent) * 1000
        return None

    def close(self):
        try:
            os.write(self.fd, b"q")
        except OSError:
            pass
        for _ in range(100):
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                break
            self.drain()
            time.sleep(0.02)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def median(values):
    done = [v for v in values if v is not None]
    return (statistics.median(done) if done else float("nan")), len(done)


run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f"{base}/visitor")
run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f"{base}/sshd_host")
http_port, shop_port, sshd_port = free_port(), free_port(), free_port()
server = subprocess.Popen(
    [binary, "serve", "--port", str(http_port), "--ssh-port", str(shop_port), "--data", f"{base}/served",
     "--quiet", "--ssh-max-sessions", str(most + 20), "--ssh-max-per-visitor", "1000"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
home = f"{base}/sshd-home"
os.makedirs("/run/sshd", exist_ok=True)
shutil.copy(f"{base}/visitor.pub", f"{base}/authorized_keys")
with open(f"{base}/sshd_config", "w") as config:
    config.write(f"""Port {sshd_port}
ListenAddress 127.0.0.1
HostKey {base}/sshd_host
AuthorizedKeysFile {base}/authorized_keys
PidFile {base}/sshd.pid
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
MaxStartups 1000:30:2000
MaxSessions 1000
LogLevel QUIET
ForceCommand env HOME={home} XDG_STATE_HOME={home}/state XDG_CONFIG_HOME={home}/config \
XDG_CACHE_HOME={home}/cache XDG_DATA_HOME={home}/data {binary} --server http://127.0.0.1:{http_port}
""")
plain_port = free_port()
with open(f"{base}/sshd_config") as config, open(f"{base}/sshd_plain_config", "w") as plain:
    plain.write(re.sub(r"(?s)ForceCommand.*", "", config.read()).replace(f"Port {sshd_port}", f"Port {plain_port}")
                .replace(f"PidFile {base}/sshd.pid", f"PidFile {base}/sshd_plain.pid"))
sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", f"{base}/sshd_config"], stderr=subprocess.DEVNULL)
env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", HOME=base)
for name in ("TMUX", "SSH_AUTH_SOCK", "SWIFT_BACKTRACE"):
    env.pop(name, None)


def ssh(port, user="visitor"):
    """OpenSSH's client visiting `port` as `user` (sshd's must be an account of this machine)."""
    return ["ssh", "-tt", "-p", str(port), "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o",
            f"UserKnownHostsFile={base}/known_hosts", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
            "-o", "LogLevel=QUIET", "-i", f"{base}/visitor", f"{user}@127.0.0.1"]


local_env = dict(env, XDG_STATE_HOME=f"{base}/local/state", XDG_CONFIG_HOME=f"{base}/local/config",
                 XDG_CACHE_HOME=f"{base}/local/cache", XDG_DATA_HOME=f"{base}/local/data")
sides = {"fakenft serve --ssh-port": ssh(shop_port), "sshd + ForceCommand": ssh(sshd_port, getpass.getuser()),
         "local (no SSH)": [binary, "--server", f"http://127.0.0.1:{http_port}"]}
try:
    time.sleep(1.5)
    for name, command in sides.items():  # the first visit: past the onboarding, seen once
        first = Session(command, local_env if name.startswith("local") else env)
        if first.wait_for(b"9 collections", welcome=True) is None:
            sys.exit(f"{name}: the catalog never showed: {first.seen[-2000:]!r}")
        if server.poll() is not None:
            sys.exit("fakenft serve did not start")
        first.close()

    print(f"  connect to the first frame with the catalog (a returning visitor, median of {runs}):")
    for name, command in sides.items():
        times = []
        for _ in range(runs):
            session = Session(command, local_env if name.startswith("local") else env)
            times.append(session.wait_for(b"9 collections"))
            session.close()
        value, count = median(times)
        print(f"    {name:26} {value:7.1f} ms ({count}/{runs})")

    print("  a key to its echo (j, the selection moving; median of 100, the sides' keys in turn):")
    open_sides = {name: Session(command, local_env if name.startswith("local") else env)
                  for name, command in sides.items()}
    for session in open_sides.values():
        session.wait_for(b"9 collections")
    time.sleep(0.5)
    echoes = {name: [] for name in open_sides}
    for i in range(100):  # in turn: a slower minute of the machine's slows every side alike
        for name, session in open_sides.items():
            echoes[name].append(session.echo_ms(b"j" if i % 2 == 0 else b"k"))
            time.sleep(0.01)
    for name, session in open_sides.items():
        session.close()
        value, count = median(echoes[name])
        print(f"    {name:26} {value:7.2f} ms ({count}/100)")

    def timed(command, times):
        """Milliseconds from start to exit of `command`, `times` over (each must succeed)."""
        taken = []
        for _ in range(times):
            began = time.monotonic()
            done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            taken.append((time.monotonic() - began) * 1000 if done.returncode == 0 else None)
        return taken

    def no_tty(command):
        return [word for word in command if word != "-tt"]

    print(f"  a command (nft 1 --json), start to exit (median of {runs * 2}):")
    plain_sshd = subprocess.Popen(
        ["/usr/sbin/sshd", "-D", "-e", "-f", f"{base}/sshd_plain_config"], stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    control = f"{base}/control"
    multiplexed = ["-o", "ControlMaster=no", "-o", f"ControlPath={control}"]
    subprocess.run(no_tty(ssh(shop_port))[:-1] + ["-o", "ControlMaster=yes", "-o", f"ControlPath={control}",
                   "-o", "ControlPersist=60", "-N", "-f", "visitor@127.0.0.1"], env=env, check=True)
    for name, command in {
        "ssh, fakenft serve --ssh-port": no_tty(ssh(shop_port)) + ["nft", "1", "--json"],
        "ssh true, sshd (no app)": no_tty(ssh(plain_port, getpass.getuser())) + ["true"],
        "ssh over one connection": no_tty(ssh(shop_port))[:-1] + multiplexed + ["visitor@127.0.0.1", "nft", "1",
                                                                            "--json"],
        "fakenft nft 1 --server": [binary, "nft", "1", "--json", "--server", f"http://127.0.0.1:{http_port}"],
    }.items():
        value, count = median(timed(command, runs * 2))
        print(f"    {name:30} {value:7.1f} ms ({count}/{runs * 2})")
    subprocess.run(["ssh", "-o", f"ControlPath={control}", "-O", "exit", "visitor@127.0.0.1"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    plain_sshd.terminate()

    def open_sessions(command, count):
        opened = []
        for _ in range(count):
            session = Session(command, env)
            opened.append(session)
            if session.wait_for(b"9 collections", timeout=60) is None:
                break
            for other in opened:
                other.drain()
        return opened

    def family(pid):
        return [pid] + children(pid)

    def flood(session, size=400_000):
        """Sends `size` bytes of `jk` as fast as the session takes them, reading what it draws."""
        data, sent = b"jk" * (size // 2), 0
        while sent < len(data):
            readable, writable, _ = select.select([session.fd], [session.fd], [], 1)
            if readable:
                session.read(0)
            if writable:
                sent += os.write(session.fd, data[sent:sent + 4096])

    print("  fairness: four sessions each sent 400 KB of keys; another visitor's tab switch "
          "(1-4, first byte of the redraw; target p99 100 ms):")
    flooders = open_sessions(ssh(shop_port), 4)
    calm = Session(ssh(shop_port), env)
    calm.wait_for(b"9 collections")
    floods = [threading.Thread(target=flood, args=(session,)) for session in flooders]
    for thread in floods:
        thread.start()
    switches = []
    while any(thread.is_alive() for thread in floods) or len(switches) < 20:
        switches.append(calm.echo_ms(b"1234"[len(switches) % 4:][:1]))
        time.sleep(0.05)
        if len(switches) >= 400:
            break
    for thread in floods:
        thread.join()
    done = sorted(e for e in switches if e is not None)
    p99 = done[max(0, int(len(done) * 0.99) - 1)] if done else float("nan")
    print(f"    {len(done)} of {len(switches)} switches drawn; median {median(switches)[0]:.1f} ms, "
          f"p99 {p99:.1f} ms, slowest {done[-1] if done else float('nan'):.1f} ms")
    print("  q after 400 KB of keys, to the session's end (target 1 s):")
    ended = []
    for session in flooders:
        flood(session)
        sent = time.monotonic()
        os.write(session.fd, b"q")
        while time.monotonic() - sent < 30 and not os.waitpid(session.pid, os.WNOHANG)[0]:
            session.read(0.05)
        ended.append((time.monotonic() - sent) * 1000)
        os.close(session.fd)
    print(f"    {', '.join(f'{value:.0f}' for value in ended)} ms")
    calm.close()

    print("  20 idle sessions: resident memory per session (proportional set size; target 40 MB):")
    for name, root, command in (("fakenft serve --ssh-port", server.pid, sides["fakenft serve --ssh-port"]),
                                ("sshd + ForceCommand", sshd.pid, sides["sshd + ForceCommand"])):
        before = sum(memory_kib(p) for p in family(root))
        opened = open_sessions(command, 20)
        time.sleep(1)
        for session in opened:
            session.drain()
        processes = family(root)
        after = sum(memory_kib(p) for p in processes)
        apps = [p for p in processes if p != root and b"fakenft" in open(f"/proc/{p}/cmdline", "rb").read()]
        app = statistics.mean(memory_kib(p) for p in apps) / 1024 if apps else float("nan")
        own = statistics.mean(memory_kib(p, "Private_Dirty") for p in apps) / 1024 if apps else float("nan")
        rss = statistics.mean(memory_kib(p, "Rss") for p in apps) / 1024 if apps else float("nan")
        print(f"    {name:26} {(after - before) / 1024 / len(opened):6.1f} MB per session: the app {app:.1f} MB "
              f"({own:.1f} MB its own, resident {rss:.1f} MB with the binary's shared pages), the rest the "
              f"server's (or sshd's) share")
        for session in opened:
            session.close()

    def idle_ticks(opened, root, seconds):
        """The CPU ticks of `root` and its descendants over `seconds`, the sessions read meanwhile;
        (all, `root`'s own)."""
        start, own = sum(cpu_ticks(p) for p in family(root)), cpu_ticks(root)
        quiet_until = time.monotonic() + seconds
        while time.monotonic() < quiet_until:
            for session in opened:
                session.drain()
            time.sleep(0.2)
        return sum(cpu_ticks(p) for p in family(root)) - start, cpu_ticks(root) - own

    print("  50 idle sessions: CPU over 10 s, after 5 s to settle (target about 0):")
    for name, root, command in (("sshd + ForceCommand", sshd.pid, sides["sshd + ForceCommand"]),
                                ("fakenft serve --ssh-port", server.pid, ssh(shop_port))):
        opened = open_sessions(command, 50)
        idle_ticks(opened, root, 5)  # the last ones' pictures and saved copies
        ticks, own = idle_ticks(opened, root, 10)
        print(f"    {name:26} {ticks} ticks ({ticks * 1000 // TICK} ms of CPU) for {len(opened)} sessions, "
              f"{own} of them the {'server' if root == server.pid else 'listening sshd'}'s")
        if root == sshd.pid:
            for session in opened:
                session.close()

    print(f"  sessions held, each answering a key within 100 ms (target {most}):")
    while len(opened) < most:
        session = Session(ssh(shop_port), env)
        opened.append(session)
        if session.wait_for(b"9 collections", timeout=60) is None:
            print(f"    session {len(opened)} never showed the catalog")
            break
        for other in opened:
            other.drain()
    time.sleep(2)
    echoes = []
    for session in opened:
        echoes.append(session.echo_ms())
        time.sleep(0.01)
    answered = [e for e in echoes if e is not None and e <= 100]
    done = sorted(e for e in echoes if e is not None)
    worst = done[-1] if done else float("nan")
    p99 = done[int(len(done) * 0.99) - 1] if done else float("nan")
    print(f"    {len(answered)} of {len(opened)} sessions answered within 100 ms (p99 {p99:.1f} ms, "
          f"slowest {worst:.1f} ms); server and apps resident: "
          f"{sum(memory_kib(p) for p in family(server.pid)) / 1024:.0f} MB")
    for session in opened:
        session.close()
finally:
    server.terminate()
    sshd.terminate()
    server.wait()
    sshd.wait()
    shutil.rmtree(base, ignore_errors=True)
