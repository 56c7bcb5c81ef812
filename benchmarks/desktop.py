#!/usr/bin/env python3
"""How fast the desktop front ends answer as a person types, beside the peers.

Builds a tree of SIZE entries (generated names, files hard-linked to real
ones, as growth.py does), starts `limelightd` on it as a user would and, once
every entry is named, types queries one letter at a time into:

- the GNOME Shell search provider, over a private session bus, as the Shell
  calls it: GetInitialResultSet on the first letter, GetSubsearchResultSet
  with the previous results on every further one, GetResultMetas for the
  five results shown;
- the KRunner runner: Match on every letter;
- the picker (`find-in -i`) in an 80x24 tmux window: from a key sent (the
  send-keys client's start included, 2 to 3 ms) to the frame whose first
  line shows the query and its count, read from the terminal's output as
  tmux streams it (pipe-pane), without polling;
- fzf's filter over the tree's path list (`fzf --filter`, the work fzf does
  on every key) and plocate, per query, as the peers.

Calls go over one open bus connection (python3-dbus), so a D-Bus call's time
is the provider's answer plus the bus's round trip, without process start.
Measured twice: while the watcher's second pass reads the files, and (with
--idle) once it has read them all. Timings are for this machine and this run.
"""
import argparse
import json
import os
import random
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import growth  # noqa: E402

try:
    import dbus  # python3-dbus
except ImportError:
    dbus = None

BUS_NAME = "org.limelight.SearchProvider"
SHELL = ("/org/limelight/SearchProvider", "org.gnome.Shell.SearchProvider2")
KRUNNER = ("/org/limelight/KRunner", "org.kde.krunner1")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def typed_queries(tree, rng, count):
    """Queries as typed: prefixes, words, two words, typos, initials."""
    return [" ".join(words) for kind, words in growth.queries_for(tree, rng, count * 2)
            if kind not in ("filter", "content")][:count]


def start_bus(work, env):
    socket = os.path.join(work, "bus")
    config = os.path.join(work, "bus.conf")
    with open(config, "w") as f:
        f.write(f"""<busconfig><type>session</type><listen>unix:path={socket}</listen>
<auth>EXTERNAL</auth><policy context="default"><allow send_destination="*" eavesdrop="true"/>
<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>""")
    # A socket left by an earlier run would look ready before the daemon is.
    if os.path.exists(socket):
        os.unlink(socket)
    daemon = subprocess.Popen(["dbus-daemon", "--config-file", config, "--nofork"], env=env)
    for _ in range(100):
        if os.path.exists(socket):
            break
        time.sleep(0.05)
    return daemon, "unix:path=" + socket


def provider_times(ll, env, address, queries):
    """Per-call seconds of the Shell provider and the KRunner runner."""
    provider = subprocess.Popen([ll("limelight-search-provider"), "--idle-exit", "0"],
                                env=dict(env, DBUS_SESSION_BUS_ADDRESS=address))
    bus = dbus.bus.BusConnection(address)
    for _ in range(200):
        if bus.name_has_owner(BUS_NAME):
            break
        time.sleep(0.05)
    shell = dbus.Interface(bus.get_object(BUS_NAME, SHELL[0]), SHELL[1])
    krunner = dbus.Interface(bus.get_object(BUS_NAME, KRUNNER[0]), KRUNNER[1])
    times = {"initial": [], "subsearch": [], "metas": [], "match": []}
    shown = 0

    def timed(key, typed, call, *args):
        started = time.perf_counter()
        value = call(*args, timeout=30)
        times[key].append((time.perf_counter() - started, typed))
        return value

    for query in queries:
        results = []
        for end in range(1, len(query) + 1):
            terms = query[:end].split()
            if not terms:
                continue
            if end == 1:
                results = timed("initial", query[:end], shell.GetInitialResultSet, terms)
            else:
                results = timed("subsearch", query[:end], shell.GetSubsearchResultSet, results, terms)
            if results:
                timed("metas", query[:end], shell.GetResultMetas, results[:5])
            timed("match", query[:end], krunner.Match, query[:end])
        shown += bool(results)
    provider.terminate()
    provider.wait(10)
    return times, shown


def picker_times(ll, env, work, queries):
    """Seconds from a key sent to the picker's frame that shows it."""
    socket = os.path.join(work, "tmux")
    if os.path.exists(socket):
        os.unlink(socket)
    tmux = ["tmux", "-S", socket, "-f", "/dev/null"]
    environment = " ".join(f"{k}={v}" for k, v in env.items()
                           if k.startswith("XDG_") or k in ("HOME", "PATH"))
    subprocess.run(tmux + ["new-session", "-d", "-s", "bench", "-x", "80", "-y", "24",
                           f"env {environment} TERM=xterm-256color {ll('find-in')} -i"],
                   check=True)
    times = []
    # The picker's output, as the terminal gets it, streamed through a FIFO:
    # no polling that would take the CPU from what it measures.
    fifo = os.path.join(work, "picker.out")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    subprocess.run(tmux + ["pipe-pane", "-t", "bench", "-o", f"cat > '{fifo}'"], check=True)
    stream = os.open(fifo, os.O_RDONLY)
    pending = b""

    def wait_for(query):
        """Reads the output until a frame's first line shows the query (and its count)."""
        nonlocal pending
        header = re.compile(rb"\x1b\[H(?:\x1b\[[0-9;]*m)*> (?:\x1b\[[0-9;]*m)*"
                            + re.escape(query.encode()) + rb" *(?:\x1b\[[0-9;]*m)*"
                            + rb"(?:\d+\+? results?|\x1b\[K)")
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline:
            found = header.search(pending)
            if found:
                pending = pending[found.end():]
                return True
            ready, _, _ = select.select([stream], [], [], 0.5)
            if ready:
                pending += os.read(stream, 1 << 16)
        return False

    wait_for("")
    for query in queries:
        for end in range(1, len(query) + 1):
            pending = b""
            started = time.perf_counter()
            subprocess.run(tmux + ["send-keys", "-t", "bench", "-l", query[end - 1]])
            if wait_for(query[:end]):
                times.append((time.perf_counter() - started, query[:end]))
        # Ctrl-U clears the line for the next query.
        subprocess.run(tmux + ["send-keys", "-t", "bench", "C-u"])
        time.sleep(0.05)
    subprocess.run(tmux + ["kill-server"])
    os.close(stream)
    return times


def peer_times(tree, work, queries):
    listing = os.path.join(work, "paths")
    with open(listing, "w") as f:
        for root, dirs, files in os.walk(tree):
            for name in dirs + files:
                f.write(os.path.join(root, name) + "\n")
    db = os.path.join(work, "plocate.db")
    subprocess.run(["updatedb", "-l", "0", "-U", tree, "-o", db], check=True)
    fzf, plocate = [], []
    for query in queries:
        with open(listing) as source:
            started = time.perf_counter()
            subprocess.run(["fzf", "--filter", query], stdin=source,
                           stdout=subprocess.DEVNULL)
            fzf.append(time.perf_counter() - started)
        t, _ = bench.timed(["plocate", "-d", db, "-i", "-l", "5"] + query.split())
        plocate.append(t)
    return {"fzf --filter": fzf, "plocate": plocate}


def summary(times):
    """Median, p99 and max in ms; for (seconds, query) pairs, the slowest queries."""
    labelled = [t for t in times if isinstance(t, tuple)]
    ms = sorted((t[0] if isinstance(t, tuple) else t) * 1000 for t in times)
    if not ms:
        return None
    row = {"count": len(ms), "median": statistics.median(ms),
           "p99": bench.percentile(ms, 99), "max": ms[-1]}
    if labelled:
        row["slowest"] = [[round(t * 1000, 1), q] for t, q in sorted(labelled)[-5:][::-1]]
    return row


def measure(phase, ll, env, work, tree, queries, have_tmux):
    log(f"[{phase}] providers …")
    daemon, address = start_bus(work, env)
    try:
        calls, shown = provider_times(ll, env, address, queries)
    finally:
        daemon.kill()
        daemon.wait()
    rows = {f"Shell {k}": summary(v) for k, v in calls.items() if k != "match"}
    rows["KRunner Match"] = summary(calls["match"])
    if have_tmux:
        log(f"[{phase}] picker …")
        rows["picker key to frame"] = summary(picker_times(ll, env, work, queries))
    rows["queries with results"] = f"{shown}/{len(queries)}"
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="folder of the built executables")
    parser.add_argument("--size", type=int, default=300000)
    parser.add_argument("--pool", type=int, default=100000, help="real files to link to")
    parser.add_argument("--pool-dir", help="where the real files are gathered (default: WORK/pool)")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--idle", action="store_true",
                        help="also measure once every file is read (can take long)")
    parser.add_argument("work", nargs="?")
    args = parser.parse_args()
    if dbus is None:
        sys.exit("desktop.py needs python3-dbus")
    work = args.work or tempfile.mkdtemp(prefix="limelight-desktop-")
    os.makedirs(work, exist_ok=True)

    def ll(name):
        return os.path.join(args.bin, name)

    pool = growth.real_files(args.pool_dir or os.path.join(work, "pool"), args.pool)
    tree = os.path.join(work, f"tree-{args.size}")
    xdg = os.path.join(work, f"xdg-{args.size}")
    subprocess.run(["rm", "-rf", tree, xdg])
    rng = random.Random(args.size)
    log(f"building a tree of {args.size} entries …")
    growth.build_tree(tree, args.size, pool, rng)
    env = dict(os.environ, HOME=tree, XDG_DATA_HOME=f"{xdg}/data",
               XDG_CONFIG_HOME=f"{xdg}/config", XDG_CACHE_HOME=f"{xdg}/cache",
               XDG_RUNTIME_DIR=f"{xdg}/run", XDG_CONFIG_DIRS=f"{xdg}/none")
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    os.makedirs(f"{xdg}/run", mode=0o700, exist_ok=True)
    os.makedirs(f"{xdg}/config/limelight", exist_ok=True)
    with open(f"{xdg}/config/limelight/limelight.conf", "w") as f:
        f.write("applications = no\n")
    queries = typed_queries(tree, rng, args.queries)
    have_tmux = shutil.which("tmux") is not None
    results = {"peers": {k: summary(v) for k, v in peer_times(tree, work, queries).items()}}

    watcher = subprocess.Popen([ll("limelightd"), "--quiet"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not growth.status(ll, env).get("crawlDone"):
            time.sleep(0.5)
        results["while reading"] = measure("while reading", ll, env, work, tree, queries,
                                           have_tmux)
        if args.idle:
            while not growth.status(ll, env).get("contentDone"):
                time.sleep(5)
            results["idle"] = measure("idle", ll, env, work, tree, queries, have_tmux)
    finally:
        watcher.terminate()
        watcher.wait(60)

    print(f"{args.size} entries, {len(queries)} queries typed a letter at a time; ms")
    print(f"{'':28} {'calls':>6} {'median':>8} {'p99':>8} {'max':>8}")
    for phase, rows in results.items():
        print(phase)
        for name, row in rows.items():
            if isinstance(row, dict):
                print(f"  {name:26} {row['count']:6} {row['median']:8.1f} {row['p99']:8.1f}"
                      f" {row['max']:8.1f}")
                if row.get("slowest"):
                    print("    slowest: " + ", ".join(f"{q!r} {t}" for t, q in row["slowest"]))
            else:
                print(f"  {name:26} {row}")
    with open(os.path.join(work, "desktop.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
