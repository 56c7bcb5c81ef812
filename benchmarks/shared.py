#!/usr/bin/env python3
"""Several hosts, one PostgreSQL store, against an SQLite index for each.

Builds a tree for each host (default three of 100,000 entries: generated
names, files hard-linked to real files, as growth.py builds them) and
measures, in one run on this machine:

- each host's own index: `limelightd --once` (the first crawl, both passes),
  its seconds and bytes per entry;
- the shared store: the hosts' watchers sending everything to one
  PostgreSQL server at once (each from its index, as a watcher does after
  its crawl), the seconds until all is sent, entries a second, the store's
  bytes per entry, and the server's CPU seconds per 1,000 entries (what
  bounds how many hosts one server carries);
- queries with process start, median and 99th percentile: find-in on one
  host's index (its own entries) and on the store (every host's), run on
  their own and served by a running watcher (which keeps its connections);
- with --standby: queries a second that many find-in clients at once
  manage against the one server, then with half of them reading a hot
  standby of it (`--store-read`, streaming replication);
- change to searchable across hosts: a file saved on one host, found by
  `find-in` on another through the store (a watcher running on each), beside
  a file saved and found on the same host through its own index.

With --keep-store DIR the server and its store stay in DIR after the run
and the next run starts them again: with --reuse, the hosts send only what
changed, and the queries are asked of the same store (to look into a slow
one, or to compare two builds, without sending everything again).

All hosts run on this machine, and so does the server: they share its
cores, which real hosts would not. Timings are for this machine and run.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import growth  # noqa: E402
import pgserver  # noqa: E402


def log(*args):
    print(*args, file=sys.stderr, flush=True)


class Host:
    def __init__(self, work, index, ll, store=None):
        self.name = f"host{index + 1}"
        self.tree = os.path.join(work, f"tree-{index + 1}")
        self.xdg = os.path.join(work, f"xdg-{index + 1}")
        self.ll = ll
        self.env = dict(os.environ, HOME=self.tree, XDG_DATA_HOME=f"{self.xdg}/data",
                        XDG_CONFIG_HOME=f"{self.xdg}/config", XDG_RUNTIME_DIR=f"{self.xdg}/run",
                        XDG_CACHE_HOME=f"{self.xdg}/cache", XDG_CONFIG_DIRS=f"{self.xdg}/none")
        os.makedirs(f"{self.xdg}/config/limelight", exist_ok=True)
        os.makedirs(f"{self.xdg}/run", exist_ok=True)
        self.configure(store)

    def configure(self, store):
        with open(f"{self.xdg}/config/limelight/limelight.conf", "w") as f:
            f.write(f"root = {self.tree}\napplications = no\nhost-name = {self.name}\n")
            if store:
                f.write(f"store = {store}\n")

    def once(self):
        return subprocess.Popen([self.ll("limelightd"), "--once", "--quiet"], env=self.env)

    def index_bytes(self):
        return bench.dir_size(f"{self.xdg}/data/limelight")


def server_cpu_seconds(server):
    """CPU seconds of the server so far: the postmaster's own, those of the
    processes it started and reaped (backends of clients that left), and
    those of its processes still running."""
    tick = os.sysconf("SC_CLK_TCK")

    def seconds(pid, fields):
        try:
            with open(f"/proc/{pid}/stat") as f:
                values = f.read().rsplit(")", 1)[1].split()
            return sum(int(values[i]) for i in fields) / tick
        except (OSError, IndexError, ValueError):
            return 0.0

    with open(os.path.join(server.data, "postmaster.pid")) as f:
        main = f.readline().strip()
    children = subprocess.run(["pgrep", "-P", main], capture_output=True, text=True).stdout.split()
    # utime, stime, cutime, cstime after the command's name.
    return seconds(main, range(11, 15)) + sum(seconds(c, range(11, 13)) for c in children)


def time_queries(queries, command, env):
    times = []
    hits = 0
    for _, words in queries:
        started = time.perf_counter()
        r = subprocess.run(command + ["--limit", "50", "--"] + words, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - started)
        hits += r.returncode == 0
    return times, hits


def change_to_found(writer, finder, folder, name, find_args, tries=5):
    """Seconds from a file saved in `writer`'s tree to `finder` finding it."""
    spent = []
    for attempt in range(tries):
        word = f"{name}{attempt}x{random.randrange(10 ** 6)}"
        path = os.path.join(folder, f"{word}.txt")
        started = time.perf_counter()
        with open(path, "w") as f:
            f.write("saved just now\n")
        while time.perf_counter() - started < 60:
            r = subprocess.run([finder.ll("find-in")] + find_args + ["--", word], env=finder.env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                break
            time.sleep(0.02)
        spent.append(time.perf_counter() - started)
    return spent


def throughput(queries, commands, env, clients, seconds):
    """Queries a second that `clients` find-in processes asking one after the
    other manage for `seconds`: client i runs commands[i % len(commands)]
    (a store name each: the primary's, a standby's)."""
    done = [0] * clients
    deadline = time.perf_counter() + seconds

    def client(i):
        rng = random.Random(i)
        while time.perf_counter() < deadline:
            _, words = rng.choice(queries)
            subprocess.run(commands[i % len(commands)] + ["--limit", "20", "--"] + words, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            done[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workdir")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--entries", type=int, default=100000)
    parser.add_argument("--pool", type=int, default=60000)
    parser.add_argument("--queries", type=int, default=90)
    parser.add_argument("--standby", action="store_true",
                        help="also measure queries a second with a hot standby beside the primary")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--reuse", action="store_true",
                        help="keep the trees and local indexes of an earlier run in WORKDIR")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--keep-store", metavar="DIR",
                        help="the store's server in DIR, kept after the run and started again "
                             "by the next (with --reuse: nothing new to send)")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    ll = lambda tool: os.path.join(args.bin, tool)  # noqa: E731
    pool = growth.real_files(os.path.join(args.workdir, "pool"), args.pool)
    server = pgserver.Server(folder=args.keep_store and os.path.abspath(args.keep_store),
                             keep=bool(args.keep_store))
    store = server.database("shared")
    hosts = [Host(args.workdir, i, ll) for i in range(args.hosts)]
    reused = args.reuse and all(os.path.isdir(f"{h.xdg}/data/limelight") for h in hosts)
    for i, host in enumerate(hosts):
        if reused:
            break
        subprocess.run(["rm", "-rf", host.tree, f"{host.xdg}/data"])
        log(f"[{host.name}] building {args.entries:,} entries …")
        growth.build_tree(host.tree, args.entries, pool, random.Random(100 + i))

    # Each host's own index, one after the other (each alone on the machine).
    local_seconds = []
    for host in hosts:
        log(f"[{host.name}] limelightd --once …")
        started = time.perf_counter()
        host.once().wait()
        local_seconds.append(time.perf_counter() - started)
    local_bytes = [h.index_bytes() for h in hosts]

    # Every host sends to the store at once.
    for host in hosts:
        host.configure(store)
    log(f"sending {args.hosts} hosts' entries to the store at once …")
    cpu_before = server_cpu_seconds(server)
    started = time.perf_counter()
    for process in [h.once() for h in hosts]:
        process.wait()
    send_seconds = time.perf_counter() - started
    server_cpu = server_cpu_seconds(server) - cpu_before
    entries = int(server.psql("shared", "SELECT count(*) FROM item"))
    store_bytes = server.size("shared")
    # What each of the store's tables takes, with its indexes and its
    # out-of-line (TOAST) values, and what its indexes alone take.
    def sizes(kind, columns):
        return [line.split("|") for line in server.psql("shared", f"""
            SELECT c.relname, {columns}
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind = '{kind}'
            ORDER BY 2 DESC""").splitlines() if line]
    relations = sizes("r", "pg_total_relation_size(c.oid), pg_indexes_size(c.oid)")
    indexes = sizes("i", "pg_relation_size(c.oid)")

    rng = random.Random(42)
    queries = growth.queries_for(hosts[0].tree, rng, args.queries)
    log("queries …")
    local_times, local_hits = time_queries(queries, [ll("find-in"), "--store", "local"],
                                           hosts[0].env)
    shared_times, shared_hits = time_queries(queries, [ll("find-in"), "--store", store],
                                             hosts[0].env)
    # Again once the server has vacuumed: a GIN index keeps what was written
    # since in a pending list that every query reads through until then.
    server.psql("shared", "VACUUM ANALYZE")
    vacuumed_times, _ = time_queries(queries, [ll("find-in"), "--store", store], hosts[0].env)

    # Queries a second, many clients at once: one server, then the clients
    # split between the primary and a hot standby of it.
    rates = None
    if args.standby:
        log(f"queries a second, {args.clients} clients …")
        find = [ll("find-in")]
        one = throughput(queries, [find + ["--store", store]], hosts[0].env, args.clients,
                         args.seconds)
        standby = pgserver.Server(standby_of=server)
        replica = standby.name("shared")
        while standby.psql("shared", "SELECT count(*) FROM item").strip() != str(entries):
            time.sleep(0.5)
        two = throughput(queries, [find + ["--store", store],
                                   find + ["--store", store, "--store-read", replica]],
                         hosts[0].env, args.clients, args.seconds)
        rates = (one, two)
        standby.stop()

    # Change to searchable: watchers running on the first two hosts.
    log("change to searchable …")
    watchers = [subprocess.Popen([ll("limelightd"), "--quiet"], env=h.env) for h in hosts[:2]]
    time.sleep(10)
    # The same queries served by host 1's running watcher, as a person's
    # find-in is: its query service keeps its connections (to the local
    # index and to the store) between searches.
    log("queries, served …")
    served_local, _ = time_queries(queries, [ll("find-in"), "--store", "local"], hosts[0].env)
    served_shared, _ = time_queries(queries, [ll("find-in")], hosts[0].env)
    folder = os.path.join(hosts[1].tree, "saved")
    os.makedirs(folder, exist_ok=True)
    time.sleep(2)
    across = change_to_found(hosts[1], hosts[0], folder, "acrosshost", ["--store", store])
    same = change_to_found(hosts[1], hosts[1], folder, "samehost", ["--store", "local"])
    for w in watchers:
        w.terminate()
        w.wait()

    def ms(values, p=None):
        values = sorted(values)
        return 1000 * (statistics.median(values) if p is None else bench.percentile(values, p))

    total = args.hosts * args.entries
    print(f"{args.hosts} hosts × {args.entries:,} entries (generated names, real files), "
          "one machine of 2 cores for the hosts and the server\n")
    print("| measure | an SQLite index each | one PostgreSQL store |")
    print("| --- | --- | --- |")
    crawl = "a rescan of the kept index" if reused else "first crawl"
    print(f"| {crawl}, each host alone (s) | {' / '.join(f'{s:.0f}' for s in local_seconds)} "
          "| (the same crawl, into the local index) |")
    if server.reused:
        print(f"| sending what changed since the kept store's run (s) | — | {send_seconds:.0f} |")
    else:
        print(f"| sending every host's entries at once (s) | — | {send_seconds:.0f} "
              f"({entries / send_seconds:,.0f} entries/s) |")
    print(f"| server CPU per 1,000 entries sent (s) | — | {1000 * server_cpu / max(1, entries):.2f} |")
    print(f"| entries | {' / '.join(f'{h:,}' for h in [args.entries] * args.hosts)} "
          f"| {entries:,} |")
    print(f"| bytes per entry | {sum(local_bytes) / total:,.0f} | {store_bytes / max(1, entries):,.0f} |")
    print(f"| query median / p99 with process start (ms) | {ms(local_times):.1f} / "
          f"{ms(local_times, 99):.1f} (one host's entries) | {ms(shared_times):.1f} / "
          f"{ms(shared_times, 99):.1f} (every host's) |")
    print(f"| the same after the server's VACUUM (ms) | — | {ms(vacuumed_times):.1f} / "
          f"{ms(vacuumed_times, 99):.1f} |")
    print(f"| the same served by a running watcher (ms) | {ms(served_local):.1f} / "
          f"{ms(served_local, 99):.1f} | {ms(served_shared):.1f} / {ms(served_shared, 99):.1f} |")
    print(f"| queries with results | {local_hits}/{len(queries)} | {shared_hits}/{len(queries)} |")
    print(f"| saved to found, median / slowest (ms) | {ms(same):.0f} / {1000 * max(same):.0f} "
          f"(same host) | {ms(across):.0f} / {1000 * max(across):.0f} (another host) |")
    # Each save in turn: a slow first one (a watcher just started) is told
    # apart from a slow one among others.
    print(f"| each save in turn (ms) | {', '.join(f'{1000 * s:.0f}' for s in same)} | "
          f"{', '.join(f'{1000 * s:.0f}' for s in across)} |")
    if rates:
        print(f"| queries a second, {args.clients} clients at once | — | {rates[0]:.1f} (one "
              f"server); {rates[1]:.1f} (half the clients on a hot standby) |")
    print("\n| table (with its indexes and out-of-line values) | bytes per entry | of which indexes |")
    print("| --- | --- | --- |")
    for name, whole, its_indexes in relations:
        print(f"| {name} | {int(whole) / max(1, entries):,.0f} "
              f"| {int(its_indexes) / max(1, entries):,.0f} |")
    print(f"| (the database, catalogs included) | {store_bytes / max(1, entries):,.0f} | |")
    print("\n| index | bytes per entry |")
    print("| --- | --- |")
    for name, size in indexes:
        print(f"| {name} | {int(size) / max(1, entries):,.0f} |")
    by_kind = {}
    columns = (local_times, shared_times, vacuumed_times, served_local, served_shared)
    for (kind, _), *values in zip(queries, *columns):
        times = by_kind.setdefault(kind, tuple([] for _ in columns))
        for column, value in zip(times, values):
            column.append(value)
    print("\n| query kind, median ms | local index | store | store after VACUUM "
          "| local, served | store, served |")
    print("| --- | --- | --- | --- | --- | --- |")
    for kind, times in sorted(by_kind.items()):
        print(f"| {kind} | " + " | ".join(f"{ms(t):.1f}" for t in times) + " |")
    # The queries that make the p99: what to look at next.
    print("\n| slowest queries, served (ms) | kind | local index | store |")
    print("| --- | --- | --- | --- |")
    slowest = sorted(zip(served_shared, served_local, queries), key=lambda row: -row[0])
    for shared, local, (kind, words) in slowest[:5]:
        print(f"| `{' '.join(words)}` | {kind} | {1000 * local:.1f} | {1000 * shared:.1f} |")


if __name__ == "__main__":
    main()
