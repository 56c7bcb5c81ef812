#!/usr/bin/env python3
"""Limelight against plocate on the same corpus, in one run.

Builds a corpus of at least FILES real files (documentation, man pages,
headers, libraries and source trees found on the system, copied more than once
if the system holds too few), indexes it with `limelightd --once` and with
plocate's `updatedb`, and prints side by side: files indexed per second, index
size, query latency (median and 99th percentile over a query mix, process start
included; with the watcher idle, while it indexes, and with no watcher running,
when find-in searches on its own), seconds from a saved file to a result, and the watcher's peak and
idle memory. Timings are for this machine and this run only.
"""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SOURCES = [
    "/usr/share/doc", "/usr/share/man", "/usr/include", "/usr/share/locale",
    "/usr/share/i18n", "/usr/share/zoneinfo", "/usr/share/mime", "/usr/share/perl",
    "/usr/share/perl5", "/usr/lib/python3", "/usr/lib/python3.11", "/usr/share/icons",
    "/usr/src", "/opt/swift/usr/include", "/opt/swift/usr/lib/swift", "/usr/share/vim",
    "/usr/share/X11", "/usr/share/gtk-doc", "/usr/share/common-licenses", "/usr/share/info",
]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def build_corpus(target, files):
    """Copies system folders into target until it holds at least `files` files."""
    count = 0
    copy = 0
    while count < files:
        copy += 1
        before = count
        for source in SOURCES:
            if count >= files:
                break
            if not os.path.isdir(source):
                continue
            for root, dirs, names in os.walk(source):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                rel = os.path.relpath(root, "/")
                dest = os.path.join(target, f"copy{copy}", rel)
                os.makedirs(dest, exist_ok=True)
                for name in names:
                    src = os.path.join(root, name)
                    if name.startswith(".") or not os.path.isfile(src) or os.path.islink(src):
                        continue
                    try:
                        if os.path.getsize(src) > 4 << 20:
                            continue
                        shutil.copyfile(src, os.path.join(dest, name))
                        count += 1
                    except OSError:
                        continue
                    if count >= files:
                        break
                if count >= files:
                    break
        if count == before:
            raise SystemExit("no readable files found to build a corpus")
    return count


def timed(cmd, env=None):
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - start, result


def percentile(values, p):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def dir_size(path):
    total = 0
    for root, _, names in os.walk(path):
        for name in names:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return total


# Names in several scripts, added to the corpora of both benchmarks so that
# Chinese, Japanese, Cyrillic, Greek and accented names are searched for:
# (name, the Latin reading a user would type).
MULTISCRIPT = [
    ("星球大战", "xingqiu"), ("天气预报", "tianqiyubao"), ("北京地图", "beijing"),
    ("中文文档说明", "wendang"), ("上海菜谱", "shanghai"), ("长城旅游", "changcheng"),
    ("熊猫照片", "xiongmao"), ("电脑维修", "diannao"), ("音乐收藏", "yinyue"), ("学校作业", "xuexiao"),
    ("こんにちは", "konnichiha"), ("ありがとう", "arigatou"), ("さくら", "sakura"),
    ("カメラ", "kamera"), ("ラーメン", "ramen"), ("タワー", "tawa"), ("ひらがな練習", "hiragana"),
    ("コンピュータ", "konpyuta"), ("おはよう", "ohayou"), ("テレビ番組", "terebi"),
    ("Москва", "moskva"), ("Санкт-Петербург", "peterburg"), ("Ελλάδα", "ellada"),
    ("Café crème", "creme"), ("Müller Straße", "muller"), ("Señor López", "senor"),
    ("Zürich Bahnhof", "zurich"), ("Ångström", "angstrom"), ("Kraków", "krakow"),
    ("Dvořák", "dvorak"), ("Crème brûlée", "brulee"), ("Björk", "bjork"),
]


def add_multiscript(corpus):
    """Files named in several scripts, with a line of text each."""
    folder = os.path.join(corpus, "multiscript")
    os.makedirs(folder, exist_ok=True)
    for i, (name, reading) in enumerate(MULTISCRIPT):
        for ext in ("txt", "md"):
            with open(os.path.join(folder, f"{name} {i}.{ext}"), "w") as f:
                f.write(f"{name} ({reading})\n")


def query_mix(corpus, rng, count):
    """What users type: name prefixes and words, two words, typos, initials,
    Chinese/Japanese and romanised names, filtered queries, predicates and
    words from the text."""
    names = []
    for root, _, files in os.walk(corpus):
        names.extend(files)
    words = sorted({w.lower() for n in names for w in re.findall(r"[A-Za-z]{4,}", n)})
    rng.shuffle(words)
    long_words = [w for w in words if len(w) >= 6]
    multiword = sorted({n for n in names if len(re.findall(r"[A-Za-z]+", os.path.splitext(n)[0])) >= 3})
    rng.shuffle(multiword)
    queries = []
    kinds = ["prefix", "word", "two words", "typo", "initials", "cjk", "filter", "predicate",
             "content"]
    text_words = ["function", "license", "return", "include", "option", "version", "example",
                  "default", "string", "manual", "copyright", "warranty", "socket", "thread"]
    for i in range(count):
        kind = kinds[i % len(kinds)]
        w = words[i % len(words)]
        if kind == "prefix":
            queries.append((kind, [w[:4]]))
        elif kind == "word":
            queries.append((kind, [w]))
        elif kind == "two words":
            queries.append((kind, [w[:5], words[(i * 7 + 3) % len(words)][:4]]))
        elif kind == "typo":
            t = list(long_words[i % len(long_words)])
            j = rng.randrange(1, len(t) - 1)
            t[j], t[j + 1] = t[j + 1], t[j]
            queries.append((kind, ["".join(t)]))
        elif kind == "initials":
            parts = re.findall(r"[A-Za-z]+", os.path.splitext(multiword[i % len(multiword)])[0])
            queries.append((kind, ["".join(p[0] for p in parts).lower()]))
        elif kind == "cjk":
            cjk = [(n, r) for n, r in MULTISCRIPT if re.search("[\u3040-\u30ff\u4e00-\u9fff]", n)]
            name, reading = cjk[i % len(cjk)]
            queries.append((kind, [name[1:3] if i % 2 else reading]))
        elif kind == "filter":
            queries.append((kind, [w[:5], rng.choice(["ext:txt", "kind:text", "ext:h", "kind:code",
                                                      "modified:year", "size:<100k"])]))
        elif kind == "predicate":
            queries.append((kind, [f'displayName == "{w[:5]}*"c']))
        else:
            queries.append((kind, [rng.choice(text_words)]))
    return queries


def plocate_words(words):
    """What plocate can take of a query: its words without filters or predicate syntax."""
    out = []
    for word in words:
        if ":" in word:
            continue
        match = re.match(r'displayName == "([^"*]+)\*?"', word)
        out.append(match.group(1) if match else word)
    return out or words


def churn(corpus, stop):
    """Keeps the watcher busy: writes and removes batches of files until told to stop."""
    folder = os.path.join(corpus, "churn")
    n = 0
    while not stop.is_set():
        batch = os.path.join(folder, f"batch{n % 4}")
        shutil.rmtree(batch, ignore_errors=True)
        os.makedirs(batch, exist_ok=True)
        for i in range(200):
            with open(os.path.join(batch, f"churned note {n} {i}.txt"), "w") as f:
                f.write(f"churned text {n} {i} " * 40)
        n += 1
        time.sleep(0.05)


def time_queries(queries, ll, env, plocate_db, tool="find-in"):
    ll_times, pl_times = {}, {}
    ll_hits = pl_hits = 0
    for kind, words in queries:
        t, r = timed([ll(tool), "--limit", "50", "--"] + words, env)
        ll_times.setdefault(kind, []).append(t)
        ll_hits += r.returncode == 0
        # plocate matches substrings of paths; several words are ANDed, like find-in's.
        t, r = timed(["plocate", "-d", plocate_db, "-i", "-l", "50"] + plocate_words(words))
        pl_times.setdefault(kind, []).append(t)
        pl_hits += r.returncode == 0
    return ll_times, pl_times, ll_hits, pl_hits


def wait_for_crawl(limelight, env):
    """Until `limelight status` says the watcher runs and its first pass is done."""
    while True:
        st = subprocess.run([limelight, "status", "--json"], env=env, stdout=subprocess.PIPE)
        try:
            status = json.loads(st.stdout)
            if status.get("crawlDone") and status.get("running"):
                return
        except ValueError:
            pass
        time.sleep(0.2)


def rss_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="?", type=int, default=120_000)
    parser.add_argument("workdir", nargs="?")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--keep-index", action="store_true",
                        help="reuse the indexes of an earlier run in WORKDIR (no crawl figures)")
    args = parser.parse_args()

    work = args.workdir or tempfile.mkdtemp(prefix="limelight-bench-")
    corpus = os.path.join(work, "corpus")
    xdg = os.path.join(work, "xdg")
    plocate_db = os.path.join(work, "plocate.db")
    keep = args.keep_index and os.path.exists(f"{xdg}/data/limelight/index.sqlite") \
        and os.path.exists(plocate_db)
    if not keep:
        shutil.rmtree(xdg, ignore_errors=True)
    env = dict(os.environ, HOME=corpus, XDG_DATA_HOME=f"{xdg}/data", XDG_CONFIG_HOME=f"{xdg}/config",
               XDG_CACHE_HOME=f"{xdg}/cache", XDG_RUNTIME_DIR=f"{xdg}/run",
               XDG_CONFIG_DIRS=f"{xdg}/none")
    if not os.path.isdir(corpus):
        log(f"building a corpus of {args.files} files in {corpus} …")
        build_corpus(corpus, args.files)
    add_multiscript(corpus)
    entries = sum(len(f) + len(d) for _, d, f in os.walk(corpus))
    files = sum(len(f) for _, _, f in os.walk(corpus))
    log(f"corpus: {files} files, {entries} entries, {dir_size(corpus) / 1e6:.0f} MB")
    ll = lambda tool: os.path.join(args.bin, tool)
    # Warm the page cache so both indexers read from memory.
    subprocess.run(["cat"] + [], stdin=subprocess.DEVNULL)
    subprocess.run(["find", corpus, "-type", "f", "-exec", "cat", "{}", "+"], stdout=subprocess.DEVNULL)

    # First crawl.
    t_ll = t_pl = ll_crawl_peak = None
    if not keep:
        log("limelightd --once …")
        t_ll, r = timed(["/usr/bin/time", "-f", "%M", ll("limelightd"), "--once", "--quiet", "--root", corpus], env)
        if r.returncode != 0:
            raise SystemExit(r.stderr.decode())
        ll_crawl_peak = int(r.stderr.decode().strip().splitlines()[-1])
        log("updatedb …")
        t_pl, r = timed(["updatedb", "-l", "0", "-U", corpus, "-o", plocate_db])
        if r.returncode != 0:
            raise SystemExit(r.stderr.decode())
    ll_size = dir_size(f"{xdg}/data/limelight")
    pl_size = os.path.getsize(plocate_db)

    # Query latency without a watcher: find-in-direct opens the index itself.
    rng = random.Random(42)
    queries = query_mix(corpus, rng, args.queries)
    log("queries without a watcher …")
    alone_ll, alone_pl, _, _ = time_queries(queries, ll, env, plocate_db, tool="find-in-direct")
    all_alone = [t for v in alone_ll.values() for t in v]
    all_alone_pl = [t for v in alone_pl.values() for t in v]

    # With the watcher running (a desktop's usual state), find-in hands its
    # searches to the watcher's query service.
    watcher = subprocess.Popen([ll("limelightd"), "--quiet", "--root", corpus], env=env)
    watch_started = time.perf_counter()
    wait_for_crawl(ll("limelight"), env)
    log("queries, watcher idle …")
    ll_times, pl_times, ll_hits, pl_hits = time_queries(queries, ll, env, plocate_db)
    all_ll = [t for v in ll_times.values() for t in v]
    all_pl = [t for v in pl_times.values() for t in v]
    # The same queries while the watcher indexes a stream of new files.
    log("queries while the watcher is indexing …")
    stop = threading.Event()
    writer = threading.Thread(target=churn, args=(corpus, stop))
    writer.start()
    busy_ll, busy_pl, _, _ = time_queries(queries, ll, env, plocate_db)
    stop.set()
    writer.join()
    shutil.rmtree(os.path.join(corpus, "churn"), ignore_errors=True)
    all_busy = [t for v in busy_ll.values() for t in v]
    all_busy_pl = [t for v in busy_pl.values() for t in v]
    log("watcher: saved file to result …")
    latencies = []
    for i in range(10):
        # A word no earlier run left in the corpus (the query mix is seeded, this is not).
        word = f"zqxfreshword{i}x{os.getpid()}x{time.time_ns()}"
        path = os.path.join(corpus, "copy1", f"saved-{i}.txt")
        start = time.perf_counter()
        with open(path, "w") as f:
            f.write(f"a note about {word}\n")
        while subprocess.run([ll("find-in"), word], env=env, stdout=subprocess.DEVNULL).returncode != 0:
            if time.perf_counter() - start > 30:
                break
        latencies.append(time.perf_counter() - start)
        os.remove(path)
    # plocate sees a new file only after updatedb runs again.
    t_pl_update, _ = timed(["updatedb", "-l", "0", "-U", corpus, "-o", plocate_db])
    peak = rss_kib(watcher.pid, "VmHWM")
    time.sleep(2)
    cpu_before = cpu_seconds(watcher.pid)
    time.sleep(10)
    idle_cpu = cpu_seconds(watcher.pid) - cpu_before
    idle_rss = rss_kib(watcher.pid, "VmRSS")
    # Thumbnails the watcher made in the background meanwhile (at the lowest priority).
    thumbnails_made = len(os.listdir(f"{xdg}/cache/thumbnails/large")) \
        if os.path.isdir(f"{xdg}/cache/thumbnails/large") else 0
    watched_for = time.perf_counter() - watch_started
    watcher.terminate()
    watcher.wait()

    def ms(v):
        return f"{v * 1000:.1f} ms"

    rows = [] if keep else [
        ("files indexed per second (first crawl)", f"{entries / t_ll:,.0f}", f"{entries / t_pl:,.0f}",
         f"{(entries / t_ll) / (entries / t_pl):.2f}x"),
        ("first crawl, seconds", f"{t_ll:.1f}", f"{t_pl:.1f}", f"{t_ll / t_pl:.1f}x"),
    ]
    rows += [
        ("index size", f"{ll_size / 1e6:.1f} MB", f"{pl_size / 1e6:.1f} MB", f"{ll_size / pl_size:.1f}x"),
        ("query median, watcher idle (process start included)", ms(statistics.median(all_ll)),
         ms(statistics.median(all_pl)), f"{statistics.median(all_ll) / statistics.median(all_pl):.1f}x"),
        ("query 99th percentile, watcher idle", ms(percentile(all_ll, 99)), ms(percentile(all_pl, 99)),
         f"{percentile(all_ll, 99) / percentile(all_pl, 99):.1f}x"),
        ("query median while indexing", ms(statistics.median(all_busy)),
         ms(statistics.median(all_busy_pl)),
         f"{statistics.median(all_busy) / statistics.median(all_busy_pl):.1f}x"),
        ("query 99th percentile while indexing", ms(percentile(all_busy, 99)),
         ms(percentile(all_busy_pl, 99)), f"{percentile(all_busy, 99) / percentile(all_busy_pl, 99):.1f}x"),
        ("query median, no watcher (find-in-direct)", ms(statistics.median(all_alone)),
         ms(statistics.median(all_alone_pl)),
         f"{statistics.median(all_alone) / statistics.median(all_alone_pl):.1f}x"),
        ("query 99th percentile, no watcher", ms(percentile(all_alone, 99)),
         ms(percentile(all_alone_pl, 99)), f"{percentile(all_alone, 99) / percentile(all_alone_pl, 99):.1f}x"),
    ]
    for label, ll_set, pl_set in (("watcher idle", ll_times, pl_times), ("while indexing", busy_ll, busy_pl)):
        for kind in ll_set:
            rows.append((f"  median / worst, {kind}, {label}",
                         f"{ms(statistics.median(ll_set[kind]))} / {ms(max(ll_set[kind]))}",
                         f"{ms(statistics.median(pl_set[kind]))} / {ms(max(pl_set[kind]))}",
                         f"{statistics.median(ll_set[kind]) / statistics.median(pl_set[kind]):.1f}x"))
    rows += [
        ("queries with a result", f"{ll_hits}/{len(queries)}", f"{pl_hits}/{len(queries)}", "names + text vs paths"),
        ("saved file to result, median", ms(statistics.median(latencies)), f"{t_pl_update:.1f} s (updatedb)",
         f"{statistics.median(latencies) / t_pl_update:.3f}x"),
        ("saved file to result, worst", ms(max(latencies)), "", ""),
        ("watcher peak memory (first crawl, --once)",
         "(index kept)" if keep else f"{ll_crawl_peak / 1024:.0f} MiB", "", ""),
        ("watcher peak memory (watching)", f"{peak / 1024:.0f} MiB", "", ""),
        ("watcher idle memory", f"{idle_rss / 1024:.0f} MiB", "", ""),
        ("watcher idle CPU over 10 s", f"{idle_cpu:.2f} s", "", ""),
        ("thumbnails made in the background", f"{thumbnails_made:,} in {watched_for:.0f} s"
         f" ({thumbnails_made / watched_for:.1f}/s)", "", ""),
    ]
    print(f"corpus: {files:,} files, {entries:,} entries; {len(queries)} queries\n")
    widths = [max(len(r[i]) for r in rows + [("measure", "limelight", "plocate", "ratio")]) for i in range(4)]
    header = ("measure", "limelight", "plocate", "ratio")
    for row in [header] + rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())


if __name__ == "__main__":
    main()
