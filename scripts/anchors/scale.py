"""Measures `gatectl check` at scale, as a whole process: for each kind of
tool (env, tcp to one loopback listener that accepts every connection, and
a module of the manifest's own that dials it), at each size and GOMAXPROCS,
the wall time, the CPU a tool (user and system), the peak RSS and how many
answers were wrong, for each gatectl binary given, one after another in
each round. For env tools the Python model (pymodel.py --manifest, the
same manifest) is the anchor, in the same round.

    python3 scripts/anchors/scale.py OLD_GATECTL NEW_GATECTL \
        [--sizes 1000,10000,50000] [--procs 1,2] [--rounds 3]

Every env tool's variable is set, so every right answer is "available".
Run from the repository root (it copies internal/probes/tcp.wasm as the module) on
a machine with GNU time (Debian's package time). It
prints one Markdown row per kind, size and GOMAXPROCS, with the medians of
the rounds, and the range of wrong answers.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def listener():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(65535)

    def accept():
        while True:
            c, _ = s.accept()
            c.close()

    threading.Thread(target=accept, daemon=True).start()
    return "127.0.0.1:%d" % s.getsockname()[1]


def manifest(kind, n, addr, path):
    with open(path, "w") as f:
        for i in range(n):
            if kind == "env":
                f.write('[[tools]]\nname = "t%d"\nprobe = "env:GATE_SCALE_%d"\n\n' % (i, i))
            elif kind == "tcp":
                f.write('[[tools]]\nname = "t%d"\nprobe = "tcp:%s"\n\n' % (i, addr))
            else:
                f.write('[[tools]]\nname = "t%d"\n[tools.probe]\nmodule = "own.wasm"\n'
                        'config = { addr = "%s" }\ngrants = { dial = ["%s"] }\n\n' % (i, addr, addr))


def run(argv, env):
    """Runs argv under GNU time, returns (wall s, cpu s, peak RSS MiB,
    stdout). Not wait4's rusage: a child forked from this process counts
    this process's RSS before its exec as its own peak."""
    with tempfile.NamedTemporaryFile("r") as t:
        start = time.monotonic()
        out = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%M %U %S"] + argv, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        wall = time.monotonic() - start
        rss, user, system = t.read().split()[-3:]
    return wall, float(user) + float(system), int(rss) / 1024, out


def wrong(out, n):
    tools = json.loads(out)["tools"]
    return n - sum(1 for t in tools if t["state"] == "available")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--procs", default="1,2")
    ap.add_argument("--kinds", default="env,tcp,module")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    addr = listener()
    work = tempfile.mkdtemp()
    shutil.copy("internal/probes/tcp.wasm", os.path.join(work, "own.wasm"))
    model = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pymodel.py")
    print("| kind | tools | GOMAXPROCS | " + " | ".join(
        "%s: wall, CPU a tool, peak RSS, wrong" % os.path.basename(b) for b in args.binaries) + " | model |")
    print("|---|---|---|" + "---|" * len(args.binaries) + "---|")
    for kind in args.kinds.split(","):
        for n in map(int, args.sizes.split(",")):
            path = os.path.join(work, "%s%d.toml" % (kind, n))
            manifest(kind, n, addr, path)
            env = dict(os.environ)
            env.update({"GATE_SCALE_%d" % i: "x" for i in range(n)})
            for procs in map(int, args.procs.split(",")):
                env["GOMAXPROCS"] = str(procs)
                got = {b: [] for b in args.binaries}
                anchor = []
                for _ in range(args.rounds):
                    for b in args.binaries:
                        cache = tempfile.mkdtemp()
                        env["GATE_CACHE_DIR"] = cache
                        wall, cpu, rss, out = run([b, "check", "--json", "-m", path], env)
                        got[b].append((wall, cpu, rss, wrong(out, n)))
                        shutil.rmtree(cache)
                    if kind == "env":
                        wall, cpu, rss, _ = run([sys.executable, model, "--manifest", path], env)
                        anchor.append((wall, cpu, rss))
                cells = []
                for b in args.binaries:
                    w = [r[3] for r in got[b]]
                    cells.append("%.2f s, %.0f µs, %.0f MiB, %s" % (
                        statistics.median(r[0] for r in got[b]),
                        statistics.median(r[1] for r in got[b]) / n * 1e6,
                        statistics.median(r[2] for r in got[b]),
                        "%d" % w[0] if min(w) == max(w) else "%d-%d" % (min(w), max(w))))
                a = "-"
                if anchor:
                    a = "%.2f s, %.0f µs, %.0f MiB" % (
                        statistics.median(r[0] for r in anchor),
                        statistics.median(r[1] for r in anchor) / n * 1e6,
                        statistics.median(r[2] for r in anchor))
                print("| %s | %d | %d | %s | %s |" % (kind, n, procs, " | ".join(cells), a), flush=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
