#!/usr/bin/env python3
"""Find by meaning: is a document found from a description of it?

Asks find-in descriptions written for known documents of the benchmark
corpus (`shared/corpus/build-corpus.sh`: Python's documentation, the Linux
kernel's, manual pages in several languages, notes named by their titles),
a third of them in another language than the document's, none of which the
words alone find in their top 10. Each is asked twice of the same index:
with meaning (`find-in`, served by the watcher, which holds the model) and
without (`find-in-direct`, which searches on its own and never loads it).
Reports top-1 and top-10 per language of the query and per pair of
languages, and which queries the words alone find after all (a query
written wrong for this benchmark: fix it).

Two sizes:
- `--instance DIR`: an instance (XDG folders under DIR) whose index holds the
  whole corpus; its watcher is started (the third pass goes on where it was)
  and the figures are for the vectors it has so far, which are reported.
- `--pool N` (the default, 1,500): the documents asked for and N other
  document-like files of the corpus, drawn with a fixed seed, copied to a
  tree of their own with the same relative paths, indexed, embedded to the
  end, then asked.

With `--store URL`, the watcher also sends its entries and vectors to that
shared PostgreSQL store (named in the instance's limelight.conf for the
run), and both programs search the store: the figures are the store's, to
compare with the local index's on the same vectors.

With `--speed N`, each description and query about nothing is then asked N
more times of the watcher (`find-in`, process start included), and the
median, the 99th percentile and the slowest are printed: the served speed
of meaning search at the instance's size. A third pass over a large
instance takes hours; `--borrow-vectors POOL_WORKDIR` first gives every
document of the instance that has no vector one: its own when the pool
(a `--pool` run's work folder) embedded the same file, else one of the
pool's drawn at random (a fixed seed). The speed is then that of a whole
index of vectors; the ranks are meaningless for the borrowed ones.

`--also-root DIR` (with `--instance`) adds a root the watcher follows: a
copy of the corpus hard-linked (`cp -al`) for an index twice the size (its
documents are copies: the third pass gives them their first copy's vector).

The third pass's cost: the watcher's CPU time for each vector it makes,
from the end of the content pass to the last vector (`--pool`), or over
`--pass-seconds N` of an instance's pass that goes on (`--instance`): what
a pass over the whole corpus takes on one core, without waiting hours for it.

Usage: benchmarks/meaning.py --bin BIN_DIR --corpus CORPUS [--instance DIR | --pool N]
       [--also-root DIR]... [--store URL] [--speed N] [--borrow-vectors POOL_WORKDIR]
       [--pass-seconds N] [WORKDIR]
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from growth import status  # noqa: E402  (`limelight status --json`, read)

# Each query: (language of the query, the description, what it asks for as
# patterns of the path below the corpus root; a document in any language of
# those patterns is what the person meant).
def py(page):
    """A page of Python's documentation, as HTML or as its reStructuredText source."""
    return r"Documents/Manuals/python3\.11-doc/.*/html/(_sources/)?" + page + r"\.(html|rst\.txt)$"


def kernel(page):
    """A page of the kernel's documentation, as its source or as HTML."""
    return (r"Documents/Manuals/linux-doc-6\.1/.*/(Documentation|html|html/_sources)/" + page
            + r"\.(rst\.gz|html|rst\.txt)$")


def man(name):
    """A manual page in any of the corpus's languages."""
    return r"Documents/man/(\w+/)?man\d/" + re.escape(name) + r"(\.gz)?$"


QUERIES = [
    # English descriptions of English documents.
    ("en", "running many network jobs at once with coroutines and an event loop",
     [py(r"library/asyncio[-.\w]*")]),
    ("en", "keep records in a small embedded database file without a server",
     [py(r"library/sqlite3")]),
    ("en", "build a desktop program with windows, buttons and menus",
     [py(r"library/tkinter[-.\w]*")]),
    ("en", "write automated checks that a function behaves as it should",
     [py(r"library/unittest[-.\w]*")]),
    ("en", "start other programs from a script and capture what they print",
     [py(r"library/subprocess")]),
    ("en", "objects for file system locations instead of plain strings",
     [py(r"library/pathlib")]),
    ("en", "writing down the events of a running application, each marked by how serious it is",
     [py(r"(howto|library)/logging[-.\w]*")]),
    ("en", "a sandbox of its own for the libraries one project depends on",
     [py(r"(tutorial|library)/venv")]),
    ("en", "putting a list in order by a key function",
     [py(r"howto/sorting")]),
    ("en", "why decimal fractions come out slightly wrong in binary arithmetic",
     [py(r"tutorial/floatingpoint")]),
    ("en", "handling text in many alphabets and character encodings",
     [py(r"howto/unicode"), py(r"library/codecs")]),
    ("en", "a type whose members are a fixed list of named choices",
     [py(r"(howto|library)/enum")]),
    ("en", "reading the options and flags given to a script when it is run",
     [py(r"(howto|library)/(argparse|optparse|getopt)")]),
    ("en", "spreading work over several processor cores in separate processes",
     [py(r"library/(multiprocessing[-.\w]*|concurrent\.futures)")]),
    ("en", "turning objects into a text format that web services exchange",
     [py(r"library/json")]),
    ("en", "what happens when a program fails and how to recover from it",
     [py(r"tutorial/errors"), py(r"library/exceptions")]),
    ("en", "talking to other machines over the network through endpoints",
     [py(r"howto/sockets"), py(r"library/socket")]),
    ("en", "my computer crashes, whom do I tell and what do I send them",
     [kernel(r"admin-guide/(reporting-issues|reporting-bugs|bug-hunting)")]),
    ("en", "mailing a correction you made to those who look after the kernel",
     [kernel(r"process/(submitting-patches|5\.Posting|howto)")]),
    ("en", "schedule a command to run every night at a fixed hour",
     [man("crontab.5"), man("crontab.1"), man("cron.8"), man("systemd.timer.5")]),
    ("en", "which disks are attached at boot and where they appear",
     [man("fstab.5")]),
    ("en", "open a shell on a distant computer over an encrypted connection",
     [man("ssh.1")]),
    ("en", "put many files together into one archive",
     [man("tar.1")]),
    ("en", "create an account for a new person on the system",
     [man("useradd.8"), man("adduser.8")]),
    ("en", "how much room is left on each mounted disk",
     [man("df.1")]),
    ("en", "how much space the files below a folder take up",
     [man("du.1")]),
    ("en", "static table that maps machine names to network addresses",
     [man("hosts.5")]),
    ("en", "power the computer off or restart it",
     [man("shutdown.8"), man("reboot.8"), man("poweroff.8"), man("halt.8")]),
    ("en", "end a misbehaving process by sending it a signal",
     [man("kill.1"), man("pkill.1"), man("killall.1")]),
    ("en", "run a program with a lower scheduling priority",
     [man("nice.1"), man("renice.1")]),
    ("en", "show the day and hour, or adjust the computer's clock",
     [man("date.1"), man("timedatectl.1"), man("hwclock.8")]),
    ("en", "view what the system's logging service has collected",
     [man("journalctl.1")]),
    ("en", "drop repeated neighbouring lines from a text",
     [man("uniq.1")]),
    ("en", "who may read, write or run a file",
     [man("chmod.1")]),
    ("en", "look through a directory tree for files by name, size or age",
     [man("find.1")]),
    ("en", "attach a file system to the directory tree",
     [man("mount.8")]),
    ("en", "install and upgrade software packages from the command line",
     [man("apt.8"), man("apt-get.8")]),
    ("en", "a unit that starts a service at a calendar time",
     [man("systemd.timer.5")]),
    ("en", "ask a machine on the network whether it answers",
     [man("ping.8")]),
    ("en", "change the secret a user logs in with",
     [man("passwd.1"), man("chpasswd.8")]),
    # Other languages, of English documents.
    ("de", "wie man viele Aufgaben gleichzeitig mit einer Ereignisschleife ausführt",
     [py(r"library/asyncio[-.\w]*")]),
    ("de", "eine kleine Datenbank in einer Datei aus einem Programm benutzen",
     [py(r"library/sqlite3")]),
    ("de", "grafische Oberfläche mit Fenstern und Schaltflächen",
     [py(r"library/tkinter[-.\w]*")]),
    ("de", "Muster in Zeichenketten suchen mit regulären Ausdrücken",
     [py(r"(howto/regex|library/re)")]),
    ("de", "warum Gleitkommazahlen im Rechner ungenau sind",
     [py(r"tutorial/floatingpoint")]),
    ("de", "Fehler im Kernel den Entwicklern melden",
     [kernel(r"admin-guide/(reporting-issues|reporting-bugs|bug-hunting)")]),
    ("fr", "écrire des tests automatiques pour vérifier son code",
     [py(r"library/unittest[-.\w]*"), py(r"library/doctest")]),
    ("fr", "lancer un autre programme et lire ce qu'il affiche",
     [py(r"library/subprocess")]),
    ("fr", "journaliser les messages d'une application",
     [py(r"(howto|library)/logging[-.\w]*")]),
    ("fr", "lire les arguments de la ligne de commande d'un script",
     [py(r"(howto|library)/(argparse|optparse|getopt)")]),
    ("fr", "environnement virtuel pour installer des paquets",
     [py(r"(tutorial|library)/venv")]),
    ("fr", "trier une liste selon une clé",
     [py(r"howto/sorting")]),
    ("es", "convertir objetos a un formato de texto para servicios web",
     [py(r"library/json")]),
    ("es", "manejar fechas, horas y zonas horarias",
     [py(r"library/(datetime|zoneinfo)")]),
    ("es", "usar varios núcleos del procesador con procesos separados",
     [py(r"library/(multiprocessing[-.\w]*|concurrent\.futures)")]),
    ("es", "enviar parches a los mantenedores del núcleo por correo",
     [kernel(r"process/(submitting-patches|5\.Posting|howto)")]),
    ("ja", "コルーチンを使った非同期プログラミング",
     [py(r"library/asyncio[-.\w]*")]),
    ("ja", "日付と時刻を扱う",
     [py(r"library/(datetime|time|zoneinfo|calendar)")]),
    ("ja", "ネットワーク通信のソケット",
     [py(r"howto/sockets"), py(r"library/socket")]),
    ("ja", "単体テストを書く",
     [py(r"library/unittest[-.\w]*")]),
    # Other languages, of manual pages in theirs or others.
    ("es", "programar tareas para que se ejecuten cada noche",
     [man("crontab.5"), man("crontab.1"), man("cron.8"), man("systemd.timer.5")]),
    ("es", "conectarse de forma segura a un servidor remoto",
     [man("ssh.1")]),
    ("fr", "combien de place reste sur chaque disque",
     [man("df.1")]),
    ("de", "laufende Prozesse mit einem Signal beenden",
     [man("kill.1"), man("pkill.1"), man("killall.1")]),
    ("ja", "コンピュータの電源を切る",
     [man("shutdown.8"), man("reboot.8"), man("poweroff.8"), man("halt.8")]),
]

# Queries about nothing the corpus holds: what meaning adds to them is
# noise, counted to see the price of what it finds.
ABOUT_NOTHING = [
    "recipe for apple pie with cinnamon", "football results of the weekend",
    "photos from my grandmother's birthday party", "invoice from the plumber for the kitchen sink",
    "Urlaubsfotos vom Strand in Italien", "lettre de résiliation de mon contrat de téléphone",
    "receta de paella valenciana", "猫の写真", "quarterly sales figures for the northern region",
    "wedding guest list and seating plan", "holiday schedule of the kindergarten",
    "tax return 2025", "Steuererklärung", "song lyrics about summer love",
]


# The language each document is written in, read from its path.
def document_language(path):
    m = re.search(r"Documents/man/(\w+)/man\d/", path)
    if m:
        return m.group(1).split("_")[0]
    m = re.search(r"Documents/Notes/(\w+)/", path)
    return m.group(1) if m else "en"


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def environment(instance, home):
    """An instance's variables: its XDG folders under `instance` (made)."""
    folders = {"XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "cache",
               "XDG_STATE_HOME": "state", "XDG_RUNTIME_DIR": "run"}
    env = dict(os.environ, HOME=home)
    for variable, folder in folders.items():
        env[variable] = os.path.join(instance, folder)
        os.makedirs(env[variable], exist_ok=True)
    os.chmod(env["XDG_RUNTIME_DIR"], 0o700)
    return env


def ranked(program, query, env, root):
    """The paths find-in lists for a query, below the corpus root, best first,
    each with whether it was found by meaning."""
    run = subprocess.run([program, "--json", "--limit", "10", query], env=env,
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"{program} {query!r}: exit {run.returncode}: {run.stderr.strip()}")
    found = []
    for line in run.stdout.splitlines():
        item = json.loads(line)
        path = item.get("path") or ""
        found.append((os.path.relpath(path, root) if path.startswith(root) else path,
                      item.get("match") == "meaning"))
    return found


def rank_of(found, patterns):
    for rank, (path, _) in enumerate(found, 1):
        if any(re.search(pattern, path) for pattern in patterns):
            return rank
    return None


def cpu_seconds(pid):
    """The CPU time a process has used so far (user and system), in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class PassCost:
    """The watcher's CPU time for each vector its third pass makes, from
    the first reading of it with the content read to the last: what the
    pass costs a document on one core, whatever else shares the machine
    (the queries asked of the watcher meanwhile count too)."""

    def __init__(self):
        self.first, self.last = None, None

    def read(self, report):
        """Takes a reading from the watcher's report (`limelight status --json`)."""
        meaning = report.get("meaning") or {}
        if not report.get("contentDone") or not report.get("pid") or meaning.get("vectors") is None:
            return
        reading = (cpu_seconds(report["pid"]), meaning["vectors"], meaning.get("embedded") or 0)
        if self.first is None:
            self.first = reading
        self.last = reading

    def report(self):
        if not self.first or self.last[1] <= self.first[1]:
            return
        seconds, vectors = self.last[0] - self.first[0], self.last[1] - self.first[1]
        print(f"third pass: {vectors} vectors made, {seconds:.0f} s of the watcher's CPU: "
              f"{seconds / vectors:.3f} s a vector ({self.last[2] - self.first[2]} documents "
              "done, copies and texts too short to embed among them)")


def wait_for_meaning(ll, env, deadline, cost=None):
    """Waits until the third pass has embedded every document worth it."""
    shown = 0.0
    while time.time() < deadline:
        report = status(ll, env)
        meaning = report.get("meaning") or {}
        if cost:
            cost.read(report)
        worth, embedded = meaning.get("worth"), meaning.get("embedded")
        if worth and embedded is not None and embedded >= worth:
            return meaning
        if time.time() - shown > 30:
            log(f"  meaning: {embedded} of {worth} embedded")
            shown = time.time()
        time.sleep(2)
    raise SystemExit("the third pass did not end in time")


def wait_for_store(ll, env, stall=600):
    """Waits until the watcher has sent the store everything its index holds,
    the vectors included: as long as the sending goes on (a whole index of
    355,000 entries takes about twenty minutes), but no more than `stall`
    seconds without anything in the status of the sending changing."""
    seen, moved = None, time.time()
    while time.time() - moved < stall:
        state = status(ll, env)
        shared = state.get("sharedStore") or {}
        if shared.get("state") == "current" and shared.get("sentThrough") == state.get("generation"):
            return
        now = json.dumps(shared, sort_keys=True)
        if now != seen:
            seen, moved = now, time.time()
        time.sleep(1)
    raise SystemExit(f"the watcher sent the store nothing for {stall} s")


def wait_for_service(env, timeout=60):
    socket = os.path.join(env["XDG_RUNTIME_DIR"], "limelight", "query.socket")
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(socket):
            return
        time.sleep(0.2)
    raise SystemExit("the watcher's query service did not start")


def document_like(corpus):
    """Files of the corpus the third pass would embed: documentation, pages,
    manual pages, notes."""
    picked = []
    for folder, _, files in os.walk(os.path.join(corpus, "Documents")):
        for name in files:
            if re.search(r"\.(html?|rst(\.gz)?|txt|md|[1-9]\w*\.gz|pdf|odt|docx)$", name):
                picked.append(os.path.relpath(os.path.join(folder, name), corpus))
    return sorted(picked)


def pool_tree(corpus, tree, size, seed):
    """The documents asked for and `size` others, with their relative paths."""
    candidates = document_like(corpus)
    wanted = [path for path in candidates
              if any(re.search(p, path) for _, _, patterns in QUERIES for p in patterns)]
    asked = set(wanted)
    others = [path for path in candidates if path not in asked]
    random.Random(seed).shuffle(others)
    chosen = wanted + others[:size]
    for path in chosen:
        target = os.path.join(tree, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(corpus, path), target)
    return len(wanted), len(chosen)


def report(rows):
    def line(label, group):
        n = len(group)
        top1 = sum(1 for g in group if g["on"] == 1)
        top10 = sum(1 for g in group if g["on"] is not None)
        off1 = sum(1 for g in group if g["off"] == 1)
        off10 = sum(1 for g in group if g["off"] is not None)
        return (f"| {label} | {n} | {100 * off1 / n:.0f} % | {100 * off10 / n:.0f} % "
                f"| {100 * top1 / n:.0f} % | {100 * top10 / n:.0f} % |")
    print("| queries | n | words alone, top 1 | top 10 | with meaning, top 1 | top 10 |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(line("all", rows))
    print(line("query in another language than the document", [r for r in rows if r["across"]]))
    for language in sorted({r["language"] for r in rows}):
        print(line(f"asked in {language}", [r for r in rows if r["language"] == language]))


def borrow_vectors(instance, pool_workdir, roots, seed=7):
    """Gives the documents of `instance`'s index without a vector one of the
    pool's (its own file's when the pool embedded it). The watcher drops
    those of items not worth one at its start."""
    pool_tree_root = os.path.join(pool_workdir, "tree")
    pool = sqlite3.connect(os.path.join(pool_workdir, "instance/data/limelight/index.sqlite"))
    by_path = {}
    for path, vector in pool.execute(
            "SELECT CAST(i.path AS TEXT), m.vector FROM item_meaning AS m "
            "JOIN item AS i ON i.rowid = m.rowid WHERE length(m.vector) > 0"):
        if path:
            by_path[os.path.relpath(path, pool_tree_root)] = vector
    vectors = list(by_path.values())
    if not vectors:
        sys.exit(f"{pool_workdir}: no vectors to borrow")
    index = sqlite3.connect(os.path.join(instance, "data/limelight/index.sqlite"))
    rows = index.execute(
        "SELECT item.rowid, CAST(item.path AS TEXT) FROM item "
        "JOIN item_words_stored AS w ON w.rowid = item.rowid "
        "WHERE item.isFolder = 0 AND item.hidden = 0 AND w.textID IS NOT NULL "
        "AND instr(' ' || item.kindClasses || ' ', ' code ') = 0 "
        "AND NOT EXISTS (SELECT 1 FROM item_meaning AS m WHERE m.rowid = item.rowid)").fetchall()
    draw = random.Random(seed)
    change = index.execute("SELECT value FROM meta WHERE key = 'meaningChanges'").fetchone()[0]
    own = 0
    for rowid, path in rows:
        relative = next((os.path.relpath(path, root) for root in roots
                         if path and path.startswith(root.rstrip("/") + "/")), None)
        vector = by_path.get(relative)
        own += vector is not None
        change += 1
        index.execute("INSERT INTO item_meaning (rowid, vector, change) VALUES (?, ?, ?)",
                      (rowid, vector if vector is not None else draw.choice(vectors), change))
    index.commit()
    log(f"borrowed vectors: {len(rows)} documents, {own} of them their own file's")


def served_speed(program, queries, env, rounds):
    """Each query asked `rounds` more times (after one that warms it); the
    median, 99th percentile and slowest in ms, and the five slowest queries."""
    times = {}
    for query in queries:
        subprocess.run([program, "--limit", "20", *query.split()], env=env, capture_output=True)
    for _ in range(rounds):
        for query in queries:
            started = time.perf_counter()
            subprocess.run([program, "--limit", "20", *query.split()], env=env,
                           capture_output=True)
            times.setdefault(query, []).append((time.perf_counter() - started) * 1000)
    every = sorted(t for ts in times.values() for t in ts)
    slowest = sorted(((statistics.median(ts), q) for q, ts in times.items()), reverse=True)[:5]
    return (statistics.median(every), every[min(len(every) - 1, int(len(every) * 0.99))],
            every[-1], slowest)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--instance")
    parser.add_argument("--pool", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--lexical-only", action="store_true",
                        help="ask the words alone only (no watcher): checks the queries")
    parser.add_argument("--hours", type=float, default=3.0,
                        help="how long the third pass may take")
    parser.add_argument("--store", help="search this shared PostgreSQL store (a URL)")
    parser.add_argument("--speed", type=int, default=0, metavar="N",
                        help="then time every query N times, served by the watcher")
    parser.add_argument("--also-root", action="append", default=[], metavar="DIR",
                        help="with --instance: another root its watcher follows (a copy of "
                             "the corpus hard-linked, for a larger index)")
    parser.add_argument("--pass-seconds", type=float, default=0, metavar="N",
                        help="with --instance: first watch the third pass for N seconds and "
                             "report its CPU time a vector")
    parser.add_argument("--borrow-vectors", metavar="POOL_WORKDIR",
                        help="with --instance: first give its documents the pool's vectors")
    parser.add_argument("workdir", nargs="?")
    args = parser.parse_args()
    binaries = os.path.abspath(args.bin)
    corpus = os.path.abspath(args.corpus)
    workdir = args.workdir or tempfile.mkdtemp(prefix="limelight-meaning-")
    os.makedirs(workdir, exist_ok=True)

    if args.instance:
        instance, root = os.path.abspath(args.instance), corpus
    else:
        instance, root = os.path.join(workdir, "instance"), os.path.join(workdir, "tree")
        if not os.path.isdir(root):
            wanted, total = pool_tree(corpus, root, args.pool, args.seed)
            log(f"pool: {wanted} documents asked for and {total - wanted} others")
    env = environment(instance, root)
    ll = lambda tool: os.path.join(binaries, tool)  # noqa: E731
    watcher = None
    config = os.path.join(env["XDG_CONFIG_HOME"], "limelight", "limelight.conf")
    kept_config = open(config).read() if os.path.exists(config) else None
    if args.store:
        os.makedirs(os.path.dirname(config), exist_ok=True)
        with open(config, "w") as out:
            out.write((kept_config or "") + f"\nstore = {args.store}\nhost-name = benchmark\n")
    if args.borrow_vectors:
        if not args.instance:
            sys.exit("--borrow-vectors needs --instance")
        borrow_vectors(instance, os.path.abspath(args.borrow_vectors),
                       [root] + [os.path.abspath(r) for r in args.also_root])
    if not args.lexical_only:
        also = [a for r in args.also_root for a in ("--root", os.path.abspath(r))]
        watcher = subprocess.Popen([ll("limelightd"), "--root", root, *also],
                                   env=env, stdout=subprocess.DEVNULL,
                                   stderr=open(os.path.join(workdir, "watcher.log"), "w"))
    try:
        if watcher:
            wait_for_service(env)
            cost = PassCost()
            if args.instance:
                time.sleep(5)
                # The third pass watched for a while: its cost a document.
                until = time.time() + args.pass_seconds
                while time.time() < until:
                    cost.read(status(ll, env))
                    time.sleep(min(10, max(0, until - time.time())))
                meaning = status(ll, env).get("meaning") or {}
            else:
                meaning = wait_for_meaning(ll, env, time.time() + args.hours * 3600, cost)
            log(f"meaning: {meaning.get('embedded')} of {meaning.get('worth')} documents "
                f"embedded, {meaning.get('vectors')} vectors")
            cost.report()
            if args.store:
                wait_for_store(ll, env)
        elif not args.instance:
            subprocess.run([ll("limelightd"), "--once", "--root", root],
                           env=env, check=True, capture_output=True)
        files = document_like(root)
        languages_of = lambda patterns: {
            document_language(f) for f in files if any(re.search(p, f) for p in patterns)}
        rows = []
        for language, query, patterns in QUERIES:
            off = ranked(ll("find-in-direct"), query, env, root)
            on = ranked(ll("find-in"), query, env, root) if watcher else []
            row = {"language": language, "query": query, "off": rank_of(off, patterns),
                   "on": rank_of(on, patterns) if watcher else None,
                   "across": False, "first": on[0][0] if on else (off[0][0] if off else "")}
            row["across"] = language not in languages_of(patterns)
            rows.append(row)
            mark = lambda r: "-" if r is None else str(r)
            log(f"{language} off {mark(row['off']):>2} on {mark(row['on']):>2}  {query}"
                f"   [{row['first']}]")
        print(f"{len(rows)} description queries, {sum(r['across'] for r in rows)} in another "
              "language than the document found")
        written_wrong = [r for r in rows if r["off"] is not None]
        if written_wrong:
            # Only the whole corpus tells a query written wrong: a pool
            # holds fewer documents for the words to find before it.
            print("found by the words alone (fix these queries):" if args.instance else
                  "found by the words alone in this pool (a query to fix if the words find it "
                  "over the whole corpus too: --instance):")
            for r in written_wrong:
                print(f"  {r['language']} {r['query']!r}: rank {r['off']}")
        report(rows)
        if watcher:
            noise = [sum(1 for _, by_meaning in ranked(ll("find-in"), q, env, root)
                         if by_meaning) for q in ABOUT_NOTHING]
            print(f"\n{len(ABOUT_NOTHING)} queries about nothing the corpus holds: "
                  f"{sum(noise)} results found by meaning ({sum(1 for n in noise if n)} queries "
                  f"with any): {noise}")
        if watcher and args.speed:
            meaning = status(ll, env).get("meaning") or {}
            median, p99, most, slowest = served_speed(
                ll("find-in"), [q for _, q, _ in QUERIES] + ABOUT_NOTHING, env, args.speed)
            print(f"\nserved, {len(QUERIES) + len(ABOUT_NOTHING)} queries x {args.speed} "
                  f"({status(ll, env).get('items', '?')} items, {meaning.get('vectors')} vectors): "
                  f"median {median:.1f} ms, p99 {p99:.1f} ms, slowest {most:.1f} ms")
            for took, query in slowest:
                print(f"  {took:.1f} ms  {query}")
    finally:
        if watcher:
            watcher.terminate()
            watcher.wait()
        if args.store:
            if kept_config is None:
                os.remove(config)
            else:
                with open(config, "w") as out:
                    out.write(kept_config)


if __name__ == "__main__":
    main()
