#!/usr/bin/env python3
"""How Limelight's costs grow with the tree, beside plocate's, in one run.

For each size (default 100,000, 300,000 and 1,000,000 entries) it builds a
tree of generated names in nested folders whose files are hard links to real
files (documentation, headers, sources and libraries of the system, as
bench.py gathers them), starts `limelightd` on it as a user would (a fresh
index, watching), and measures: seconds until every entry is found by name
(the first pass), seconds until every file is read (the second), index bytes
per entry, the watcher's peak and idle memory with its helpers (the sum of
their RSS, and of their PSS, which counts the pages they share once), CPU while
idle, and query latency with process start (median and 99th percentile, over
name prefixes, words, typos, initials, filters and text words, while the
watcher is idle, and a smaller set while the second pass runs), and how soon
a file saved while the second pass runs is found (40 saves, one every 2 s,
until the pass ends) and in the 40 s after it, while the index is merged and
thumbnails drawn (20 saves). Idle figures wait for the index to be tidied
(packed after five minutes without a change: give `--settle` 600 s or more
for that to be seen). plocate's
`updatedb` and queries run on the same tree.
Prints one table, writes growth.json and, when matplotlib is there,
growth.png beside it. Timings are for this machine and this run only.

Generated trees miss what real homes hold (long, varied names in many
scripts, deep folders, large texts): `--corpus DIR` adds sizes `corpus`
(the tree the corpus recipe lays out, hard-linked once) and `corpusxN` (it
linked under N roots, `corpusx7` for about a million real entries), beside
the generated ones: `--sizes corpus,corpusx7,100000`. DIR must be on the
work folder's file system. Every size also reports the watcher's own
account of its passes (the seconds of each, and the files the second read).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import urllib.parse
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the corpus of real files, timing helpers)

WORDS = (
    "alpha budget canyon delta ember falcon garden harbor island jungle kettle lantern meadow "
    "nebula orbit prairie quartz river summit tundra umbra valley willow xenon yonder zephyr "
    "report invoice holiday notes draft final summary minutes slides photo scan letter recipe "
    "thesis chapter review backup archive project sketch config module parser server client"
).split()


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def real_files(pool_dir, want):
    """Paths of real files to link to, gathered (copied) once into pool_dir."""
    if not os.path.isdir(pool_dir):
        log(f"gathering {want} real files into {pool_dir} …")
        bench.build_corpus(pool_dir, want)
    found = []
    for root, _, names in os.walk(pool_dir):
        found.extend(os.path.join(root, n) for n in names)
    return sorted(found)


def build_tree(tree, entries, pool, rng):
    """`entries` entries: folders of about 200, files hard-linked to the pool,
    named from a word list with numbers, extensions kept from their source."""
    os.makedirs(tree, exist_ok=True)
    made = 0
    folder_index = 0
    while made < entries:
        top = os.path.join(tree, f"{rng.choice(WORDS)}-{folder_index // 50}")
        folder = os.path.join(top, f"{rng.choice(WORDS)} {rng.choice(WORDS)} {folder_index}")
        os.makedirs(folder, exist_ok=True)
        made += 1
        folder_index += 1
        for _ in range(200):
            if made >= entries:
                break
            source = pool[made % len(pool)]
            ext = os.path.splitext(source)[1][:8]
            name = f"{rng.choice(WORDS)} {rng.choice(WORDS)}{rng.choice(WORDS).title()} {made}{ext}"
            os.link(source, os.path.join(folder, name))
            made += 1
    return made


def corpus_tree(tree, corpus, copies):
    """The corpus linked `copies` times under `tree` (`cp -al`: folders made,
    files hard-linked, nothing copied); returns its entries, folders included."""
    os.makedirs(tree, exist_ok=True)
    for k in range(copies):
        target = os.path.join(tree, "corpus" if copies == 1 else f"corpus {k + 1}")
        subprocess.run(["cp", "-al", corpus, target], check=True)
    made = 0
    for root, folders, files in os.walk(tree):
        made += len(folders) + len(files)
    return made


def parse_size(spec):
    """A size of the command line: entries to generate, or ("corpus", copies)."""
    if spec.startswith("corpus"):
        rest = spec[len("corpus"):]
        return ("corpus", int(rest[1:]) if rest.startswith("x") else 1)
    return int(spec)


def pss_kib(pid):
    """Proportional set size: shared pages (the helpers share their binary's)
    divided among the processes that map them."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def tree_memory_kib(pid):
    """Memory of a process and its children (the import helpers and
    thumbnailers): the sum of their RSS (which counts the pages they share
    once per process), and of their PSS (which counts them once)."""
    rss = bench.rss_kib(pid, "VmRSS")
    pss = pss_kib(pid)
    try:
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    except OSError:
        children = ""
    for child in children.split():
        try:
            rss += bench.rss_kib(int(child), "VmRSS")
            pss += pss_kib(int(child))
        except OSError:
            pass
    return rss, pss


def status(ll, env):
    r = subprocess.run([ll("limelight"), "status", "--json"], env=env, capture_output=True,
                       text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def sample_names(tree):
    """The names of the first 20,000 files or so of a tree, the queries' source."""
    names = []
    for root, _, files in os.walk(tree):
        names.extend(files)
        if len(names) > 20000:
            break
    return names


def queries_for(tree, rng, count):
    names = sample_names(tree)
    out = []
    kinds = ["prefix", "word", "two words", "typo", "initials", "filter", "content",
             "filters alone", "phrase"]
    content = ["function", "license", "return", "include", "version", "example", "string"]
    # Phrases of common words: every text holding the words is read to
    # check their order, few hold them in a row.
    phrases = ['"new upstream release"', '"free software foundation"', '"the following"',
               '"int main"', '"return the"', '"the quick"', '"is distributed in the hope"']
    for i in range(count):
        kind = kinds[i % len(kinds)]
        name = rng.choice(names)
        words = [w for w in name.replace(".", " ").split() if w.isalpha()] or WORDS[:1]
        w = rng.choice(words).lower()
        if kind == "prefix":
            out.append((kind, [w[:4]]))
        elif kind == "word":
            out.append((kind, [w]))
        elif kind == "two words":
            out.append((kind, [w[:5], rng.choice(WORDS)[:4]]))
        elif kind == "typo":
            t = list(rng.choice([x for x in WORDS if len(x) >= 6]))
            j = rng.randrange(1, len(t) - 1)
            t[j], t[j + 1] = t[j + 1], t[j]
            out.append((kind, ["".join(t)]))
        elif kind == "initials":
            out.append((kind, ["".join(x[0] for x in words[:3]).lower()]))
        elif kind == "filter":
            out.append((kind, [w[:5], rng.choice(["ext:txt", "kind:text", "modified:year",
                                                  "type:image/*"])]))
        elif kind == "filters alone":
            # Nothing to rank by: the order of recency and depth, read in
            # that order, whether the filter holds half the tree or few items.
            out.append((kind, rng.choice([["kind:text"], ["modified:week"], ["size:>1M"],
                                          ["ext:pdf"], ["kind:image", "size:>10k"],
                                          ["type:image/*"], ["kind:code", "size:>1G"]])))
        elif kind == "phrase":
            out.append((kind, [rng.choice(phrases)]))
        else:
            out.append((kind, [rng.choice(content)]))
    return out


# Files saved during the second pass, one every 2 s, each timed until
# find-in finds it by its name: what a user meets who saves a file while a
# first crawl still reads content.
SAVES_WHILE_BUSY = 40
# And from the pass's end, while the index is merged and thumbnails drawn.
SAVES_AFTER_PASS = 20


def saved_while_busy(ll, env, tree, count, first=0, until_read=True):
    """Seconds from each save to find-in listing the file, while the second
    pass runs (stops early when the pass ends, unless not `until_read`; 20 s
    counts as not found)."""
    folder = os.path.join(tree, "Saved while busy")
    os.makedirs(folder, exist_ok=True)
    seconds = []
    for i in range(first, first + count):
        if until_read and status(ll, env).get("contentDone"):
            break
        word = f"savedprobe{i}x{os.getpid()}"
        path = os.path.join(folder, f"{word}.txt")
        uri = "file://" + urllib.parse.quote(path)
        start = time.perf_counter()
        with open(path, "w") as f:
            f.write(f"notes of a meeting, saved while the watcher reads: {word}\n")
        found = None
        while found is None and time.perf_counter() - start < 20:
            out = subprocess.run([ll("find-in"), "--limit", "5", "--", word], env=env,
                                 capture_output=True).stdout
            if uri.encode() in out:
                found = time.perf_counter() - start
        seconds.append(found if found is not None else 20.0)
        time.sleep(max(0.0, 2 - (time.perf_counter() - start)))
    return seconds


def hard_queries(tree):
    """Shapes that the random mix meets only by chance, and that have set the
    p99 before: phrases of common words (one few texts hold, one many do), the
    commonest word of the names with a filter few of its items pass, the
    commonest longer word's two-letter prefix and a typo of it, and least
    sizes few or no items reach."""
    counts = {}
    for name in sample_names(tree):
        for word in name.replace(".", " ").replace("-", " ").split():
            if word.isalpha() and len(word) >= 2:
                counts[word.lower()] = counts.get(word.lower(), 0) + 1
    common = max(counts, key=counts.get) if counts else WORDS[0]
    longer = [w for w in counts if len(w) >= 5]
    long_common = max(longer, key=counts.get) if longer else WORDS[0]
    typo = long_common[0] + long_common[2] + long_common[1] + long_common[3:]
    return [
        ("phrase few hold", ['"the quick"']),
        ("phrase many hold", ['"the following"']),
        ("common word, narrow type", [common, "type:image/*"]),
        ("common word, narrow extension", [common, "ext:txt"]),
        ("common word's 2-letter prefix", [long_common[:2]]),
        ("common word, typo", [typo]),
        ("a kind, a least size none reach", ["kind:code", "size:>1G"]),
        ("a least size few reach", ["size:>1M"]),
    ]


def measure(size, work, pool, ll, rng, query_count, settle_limit, corpus=None):
    label = size if isinstance(size, int) else f"corpus x{size[1]}"
    tree = os.path.join(work, f"tree-{label}".replace(" ", ""))
    xdg = os.path.join(work, f"xdg-{label}".replace(" ", ""))
    subprocess.run(["rm", "-rf", tree, xdg])
    log(f"[{label}] building the tree …")
    if isinstance(size, int):
        entries = build_tree(tree, size, pool, rng) + 1
    else:
        entries = corpus_tree(tree, corpus, size[1]) + 1
    size = label
    env = dict(os.environ, HOME=tree, XDG_DATA_HOME=f"{xdg}/data",
               XDG_CONFIG_HOME=f"{xdg}/config", XDG_CACHE_HOME=f"{xdg}/cache",
               XDG_RUNTIME_DIR=f"{xdg}/run", XDG_CONFIG_DIRS=f"{xdg}/none")
    os.makedirs(f"{xdg}/run", mode=0o700, exist_ok=True)
    os.makedirs(f"{xdg}/config/limelight", exist_ok=True)
    with open(f"{xdg}/config/limelight/limelight.conf", "w") as f:
        f.write("applications = no\n")
    row = {"size": size, "entries": entries}

    log(f"[{size}] plocate …")
    plocate_db = os.path.join(work, f"plocate-{size}.db")
    t, _ = bench.timed(["updatedb", "-l", "0", "-U", tree, "-o", plocate_db])
    row["plocate_seconds"] = t
    row["plocate_bytes_per_entry"] = os.path.getsize(plocate_db) / entries

    log(f"[{size}] limelightd …")
    started = time.perf_counter()
    watcher = subprocess.Popen([ll("limelightd"), "--quiet"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = peak_pss = 0
    # Which stretch the PSS peaked in: the names pass, the content pass, or
    # the settling after (merges, thumbnails and their helpers).
    phase, peak_phase = "names", None

    def sample():
        nonlocal peak, peak_pss, peak_phase
        rss, pss = tree_memory_kib(watcher.pid)
        if pss > peak_pss:
            peak_phase = phase
        peak, peak_pss = max(peak, rss), max(peak_pss, pss)

    names_at = all_at = None
    busy = None
    saved = []
    while all_at is None and watcher.poll() is None:
        time.sleep(0.5)
        sample()
        s = status(ll, env)
        now = time.perf_counter() - started
        if names_at is None and s.get("crawlDone"):
            names_at = now
            phase = "content"
        if s.get("contentDone"):
            all_at = now
        elif names_at is not None and busy is None:
            # Queries while the second pass reads and writes (each one
            # samples memory too): what a user meets in the first minutes.
            busy = []
            for kind, words in queries_for(tree, random.Random(size), 105):
                t, _ = bench.timed([ll("find-in"), "--limit", "50", "--"] + words, env)
                busy.append(t)
                sample()
            saved += saved_while_busy(ll, env, tree, SAVES_WHILE_BUSY)
    if busy:
        row["busy_query_median_ms"] = statistics.median(busy) * 1000
        row["busy_query_p99_ms"] = bench.percentile(busy, 99) * 1000
    if saved:
        row["busy_saved_median_ms"] = statistics.median(saved) * 1000
        row["busy_saved_worst_ms"] = max(saved) * 1000
        row["busy_saved_count"] = len(saved)
    row["names_seconds"] = names_at
    row["all_seconds"] = all_at
    # The watcher's own account: each pass's time as it measured it.
    final = status(ll, env)
    for key in ("namesSeconds", "namesRate", "contentSeconds", "contentFiles", "contentRate"):
        if final.get(key) is not None:
            row["watcher_" + key] = final[key]
    row["names_rate"] = entries / names_at if names_at else None
    # Settle: the index tidied after the pass (merged, then packed after
    # five minutes without a change) and the thumbnails drawn in the
    # background, until the watcher uses no CPU and says it has nothing left
    # to tidy (at most `settle_limit` seconds: past it, "idle" figures are
    # those of a watcher still at work).
    settle_started = time.perf_counter()
    phase = "settling"
    # Files saved from the pass's end: the index is merged then, and the
    # thumbnails drawn.
    after = saved_while_busy(ll, env, tree, SAVES_AFTER_PASS, first=SAVES_WHILE_BUSY,
                             until_read=False)
    row["after_pass_saved_median_ms"] = statistics.median(after) * 1000
    row["after_pass_saved_worst_ms"] = max(after) * 1000
    while True:
        cpu_before = bench.cpu_seconds(watcher.pid)
        time.sleep(5)
        sample()
        idle_cpu = (bench.cpu_seconds(watcher.pid) - cpu_before) / 5 * 100
        tidying = status(ll, env).get("tidying")
        if (idle_cpu < 1 and not tidying) or time.perf_counter() - settle_started > settle_limit:
            break
    row["settled_seconds"] = time.perf_counter() - started
    if idle_cpu >= 1:
        log(f"[{size}] still busy after {settle_limit} s: idle figures are a busy watcher's")
    cpu_before = bench.cpu_seconds(watcher.pid)
    time.sleep(10)
    row["idle_cpu_percent"] = (bench.cpu_seconds(watcher.pid) - cpu_before) / 10 * 100
    row["peak_rss_mib"] = peak / 1024
    row["peak_pss_mib"] = peak_pss / 1024
    row["peak_pss_phase"] = peak_phase
    idle_rss, idle_pss = tree_memory_kib(watcher.pid)
    row["idle_rss_mib"] = idle_rss / 1024
    row["idle_pss_mib"] = idle_pss / 1024
    db = f"{xdg}/data/limelight/index.sqlite"
    row["index_bytes_per_entry"] = index_bytes(xdg) / entries
    row["tables_bytes_per_entry"] = {
        name: size / entries for name, size in table_sizes(db).items()}

    queries = queries_for(tree, rng, query_count)
    ll_times, pl_times, ll_hits, pl_hits = bench.time_queries(queries, ll, env, plocate_db)
    flat = [t for ts in ll_times.values() for t in ts]
    flat_pl = [t for ts in pl_times.values() for t in ts]
    row["query_median_ms"] = statistics.median(flat) * 1000
    row["query_p99_ms"] = bench.percentile(flat, 99) * 1000
    row["plocate_median_ms"] = statistics.median(flat_pl) * 1000
    row["plocate_p99_ms"] = bench.percentile(flat_pl, 99) * 1000
    row["queries_with_results"] = f"{ll_hits}/{len(queries)}"
    # Which shapes set the p99: each kind's median and slowest, and the
    # slowest queries themselves.
    row["query_ms_by_kind"] = {
        kind: [statistics.median(ts) * 1000, max(ts) * 1000] for kind, ts in ll_times.items()}
    timed_queries = []
    for kind, words in queries:
        t, _ = bench.timed([ll("find-in"), "--limit", "50", "--"] + words, env)
        timed_queries.append((t * 1000, kind, " ".join(words)))
    row["slowest_queries"] = sorted(timed_queries, reverse=True)[:5]
    # The hard shapes, each run three times: the best and the slowest.
    row["hard_queries"] = []
    for shape, words in hard_queries(tree):
        times = [bench.timed([ll("find-in"), "--limit", "50", "--"] + words, env)[0] * 1000
                 for _ in range(3)]
        row["hard_queries"].append([shape, " ".join(words), min(times), max(times)])
    watcher.terminate()
    watcher.wait(60)
    # A watcher started again: on the same tree, and after every file's
    # status changed (its link count here; `chmod -R` does the same).
    linked = tree + "-linked"
    for key, change in (("restart", None), ("restart_after_status", ["cp", "-al", tree, linked])):
        if change:
            subprocess.run(change, check=True)
        row[key + "_seconds"], row[key + "_index_bytes_per_entry"] = restart(ll, env, xdg, entries)
    subprocess.run(["rm", "-rf", tree, linked])
    return row


def restart(ll, env, xdg, entries):
    """A watcher started on the index it left: seconds until its names are
    checked against the disk and the files it found changed are read, and
    the index's bytes per entry then."""
    started = time.perf_counter()
    watcher = subprocess.Popen([ll("limelightd"), "--quiet"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while time.perf_counter() - started < 3600:
        time.sleep(0.5)
        now = status(ll, env)
        if now.get("running") and now.get("state") == "watching" and now.get("contentDone"):
            break
    seconds = time.perf_counter() - started
    watcher.terminate()
    watcher.wait(60)
    return seconds, index_bytes(xdg) / entries


def index_bytes(xdg):
    """The index file's bytes and its log's."""
    db = f"{xdg}/data/limelight/index.sqlite"
    return sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))


def table_sizes(db):
    """Bytes of each table and index of the index file, the small ones together."""
    import sqlite3
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = connection.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
        connection.close()
    except sqlite3.Error as error:
        log(f"no table sizes: {error}")
        return {}
    sizes = {}
    for name, size in rows:
        key = name if size > 0.02 * sum(s for _, s in rows) else "the rest"
        sizes[key] = sizes.get(key, 0) + size
    return sizes


def fmt(value, digits=1):
    if value is None:
        return "—"
    return f"{value:,.{digits}f}" if isinstance(value, float) else f"{value:,}"


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's python3-matplotlib serves the system's interpreter, which
        # may not be the one running this.
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            data = path[:-4] + ".json"
            r = subprocess.run([system, os.path.abspath(__file__), "--plot", data, "--bin", ""])
            if r.returncode == 0:
                return
        log("matplotlib is missing: no plot (python3-matplotlib)")
        return
    sizes = [r["entries"] for r in rows]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    panels = [
        ("seconds", [("names searchable", "names_seconds"), ("everything read", "all_seconds"),
                     ("plocate updatedb", "plocate_seconds")]),
        ("bytes per entry", [("index", "index_bytes_per_entry"),
                             ("plocate", "plocate_bytes_per_entry")]),
        ("MiB", [("peak RSS", "peak_rss_mib"), ("peak PSS", "peak_pss_mib"),
                 ("idle RSS", "idle_rss_mib"), ("idle PSS", "idle_pss_mib")]),
        ("ms (process start included)", [("query median", "query_median_ms"),
                                         ("query p99", "query_p99_ms"),
                                         ("p99 during 2nd pass", "busy_query_p99_ms"),
                                         ("plocate median", "plocate_median_ms")]),
    ]
    for ax, (unit, series) in zip(axes.flat, panels):
        for label, key in series:
            ax.plot(sizes, [r.get(key) or 0 for r in rows], marker="o", label=label)
        ax.set_xscale("log")
        ax.set_xlabel("entries")
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.suptitle("Limelight: cost by tree size (plocate beside it)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    log(f"plot: {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workdir", nargs="?")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--plot", metavar="JSON", help="only draw the plot of an earlier run")
    parser.add_argument("--sizes", default="100000,300000,1000000",
                        help="entries of generated trees, or corpus / corpusxN (with --corpus)")
    parser.add_argument("--corpus", metavar="DIR",
                        help="the tree the corpus recipe laid out, for sizes corpus and corpusxN")
    parser.add_argument("--pool", type=int, default=60000,
                        help="real files to link to (gathered once into WORKDIR/pool)")
    parser.add_argument("--queries", type=int, default=140)
    parser.add_argument("--settle", type=int, default=900, metavar="SECONDS",
                        help="how long to wait for the thumbnails and merges to end"
                        " before measuring idle")
    args = parser.parse_args()
    if args.plot:
        with open(args.plot) as f:
            plot(json.load(f), args.plot[:-5] + ".png")
        return
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(42)
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    if any(not isinstance(s, int) for s in sizes) and not args.corpus:
        parser.error("sizes corpus and corpusxN need --corpus DIR")
    if any(isinstance(s, int) for s in sizes):
        pool = real_files(os.path.join(args.workdir, "pool"), args.pool)
    else:
        pool = []
    ll = lambda tool: os.path.join(args.bin, tool)
    rows = []
    for size in sizes:
        rows.append(measure(size, args.workdir, pool, ll, rng, args.queries, args.settle,
                            corpus=args.corpus and os.path.abspath(args.corpus)))
        with open(os.path.join(args.workdir, "growth.json"), "w") as f:
            json.dump(rows, f, indent=1)
    columns = [
        ("entries", "entries", 0), ("names searchable (s)", "names_seconds", 1),
        ("names/s", "names_rate", 0), ("everything read (s)", "all_seconds", 1),
        ("settled, no CPU (s)", "settled_seconds", 1),
        ("index B/entry", "index_bytes_per_entry", 0), ("peak RSS MiB", "peak_rss_mib", 0),
        ("peak PSS MiB", "peak_pss_mib", 0), ("idle RSS MiB", "idle_rss_mib", 0),
        ("idle PSS MiB", "idle_pss_mib", 0), ("idle CPU %", "idle_cpu_percent", 2),
        ("query median ms", "query_median_ms", 1), ("query p99 ms", "query_p99_ms", 1),
        ("during the 2nd pass: median ms", "busy_query_median_ms", 1),
        ("during the 2nd pass: p99 ms", "busy_query_p99_ms", 1),
        ("file saved during the 2nd pass, found: median ms", "busy_saved_median_ms", 1),
        ("file saved during the 2nd pass, found: worst ms", "busy_saved_worst_ms", 1),
        ("file saved after it (tidying, thumbnails): median ms", "after_pass_saved_median_ms", 1),
        ("file saved after it (tidying, thumbnails): worst ms", "after_pass_saved_worst_ms", 1),
        ("plocate updatedb s", "plocate_seconds", 1), ("plocate B/entry", "plocate_bytes_per_entry", 0),
        ("plocate median ms", "plocate_median_ms", 1), ("plocate p99 ms", "plocate_p99_ms", 1),
        ("watcher: names pass s", "watcher_namesSeconds", 1),
        ("watcher: content pass s", "watcher_contentSeconds", 1),
        ("watcher: files read", "watcher_contentFiles", 0),
        ("started again, nothing changed: s", "restart_seconds", 1),
        ("started again, nothing changed: index B/entry", "restart_index_bytes_per_entry", 0),
        ("started again, every file's status changed: s", "restart_after_status_seconds", 1),
        ("started again, every file's status changed: index B/entry",
         "restart_after_status_index_bytes_per_entry", 0),
    ]
    print("| measure | " + " | ".join(
        f"{fmt(r['entries'])} ({r['size']})" if isinstance(r["size"], str) else fmt(r["entries"])
        for r in rows) + " |")
    print("| --- |" + " --- |" * len(rows))
    for label, key, digits in columns[1:]:
        print(f"| {label} | " + " | ".join(
            fmt(float(r[key]) if r.get(key) is not None else None, digits) for r in rows) + " |")
    print("| queries with results | " + " | ".join(r["queries_with_results"] for r in rows) + " |")
    print("| PSS peaked while | " + " | ".join(r.get("peak_pss_phase") or "—" for r in rows) + " |")
    print()
    kinds = sorted({k for r in rows for k in r.get("query_ms_by_kind", {})})
    print("| query ms by kind: median / slowest | " + " | ".join(fmt(r["entries"]) for r in rows)
          + " |")
    print("| --- |" + " --- |" * len(rows))
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(
            "{:.1f} / {:.1f}".format(*r["query_ms_by_kind"][kind])
            if kind in r.get("query_ms_by_kind", {}) else "—" for r in rows) + " |")
    for r in rows:
        print(f"slowest at {r['entries']:,}: " + "; ".join(
            f"{q} ({k}) {t:.1f} ms" for t, k, q in r.get("slowest_queries", [])))
    print()
    shapes = [h[0] for h in rows[0].get("hard_queries", [])] if rows else []
    if shapes:
        print("| hard shapes, ms: best / slowest of 3 | " + " | ".join(
            fmt(r["entries"]) for r in rows) + " |")
        print("| --- |" + " --- |" * len(rows))
        for i, shape in enumerate(shapes):
            cells = []
            for r in rows:
                hard = r.get("hard_queries", [])
                cells.append(f"`{hard[i][1]}` {hard[i][2]:.1f} / {hard[i][3]:.1f}"
                             if i < len(hard) else "—")
            print(f"| {shape} | " + " | ".join(cells) + " |")
        print()
    tables = sorted({t for r in rows for t in r.get("tables_bytes_per_entry", {})})
    print("| bytes per entry, by table | " + " | ".join(fmt(r["entries"]) for r in rows) + " |")
    print("| --- |" + " --- |" * len(rows))
    for table in tables:
        print(f"| {table} | " + " | ".join(
            fmt(float(r.get("tables_bytes_per_entry", {}).get(table, 0)), 0) for r in rows) + " |")
    plot(rows, os.path.join(args.workdir, "growth.png"))


if __name__ == "__main__":
    main()
