#!/usr/bin/env python3
"""Faults the watcher must come through without losing what it saw.

Runs each fault against the built executables in an isolated instance (its
own home and XDG folders under WORKDIR) and prints, for each: the entries on
disk, the entries the index lost (what `find-in in:HOME` does not list that
is on disk, and what it lists that is not: both must be 0), the seconds from
the end of the fault until the index matched the disk, and whether the index
file passes SQLite's `PRAGMA integrity_check` afterwards.

- storm with kill -9: FILES files written in bursts while the watcher is
  killed three times at random moments and started again;
- full disk: the index on a 2 MB tmpfs while FILES files arrive, then the
  tmpfs grown to 2 GB (needs root to mount; skipped otherwise);
- damaged index: 64 KiB of garbage written into the middle, then into the
  header, of the index of FILES files while the watcher is stopped;
- permissions: a folder and a file the watcher may not read, given back
  (as root, the watcher runs without root's override through setpriv).

Usage: benchmarks/faults.py --bin BIN [--files 30000] WORKDIR
"""
import argparse
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.parse


def log(*args):
    print(*args, file=sys.stderr, flush=True)


class Instance:
    def __init__(self, bin_dir, base):
        self.bin = bin_dir
        self.base = base
        self.home = os.path.join(base, "home")
        shutil.rmtree(base, ignore_errors=True)
        for folder in ("home", "xdg/data", "xdg/config/limelight", "xdg/cache", "xdg/run"):
            os.makedirs(os.path.join(base, folder), exist_ok=True)
        os.chmod(os.path.join(base, "xdg/run"), 0o700)
        with open(os.path.join(base, "xdg/config/limelight/limelight.conf"), "w") as f:
            f.write("applications = no\n")
        self.env = dict(os.environ, HOME=self.home, XDG_DATA_HOME=f"{base}/xdg/data",
                        XDG_CONFIG_HOME=f"{base}/xdg/config", XDG_CACHE_HOME=f"{base}/xdg/cache",
                        XDG_RUNTIME_DIR=f"{base}/xdg/run", XDG_CONFIG_DIRS=f"{base}/xdg/none")
        self.watcher = None
        self.index = f"{base}/xdg/data/limelight/index.sqlite"

    def start(self, bound=False):
        command = [os.path.join(self.bin, "limelightd"), "--quiet"]
        if bound and os.geteuid() == 0:
            command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] + command
        self.watcher = subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)

    def kill(self, sig=9):
        if self.watcher:
            self.watcher.send_signal(sig)
            self.watcher.wait(60)
            self.watcher = None

    def run(self, tool, *args):
        return subprocess.run([os.path.join(self.bin, tool), *args], env=self.env,
                              capture_output=True, text=True)

    def disk(self):
        found = set()
        for root, folders, files in os.walk(self.home):
            folders[:] = [f for f in folders if not f.startswith(".")]
            for name in folders + [f for f in files if not f.startswith(".")]:
                found.add(os.path.relpath(os.path.join(root, name), self.home))
        return found

    def indexed(self):
        out = self.run("find-in", "in:" + self.home).stdout
        paths = set()
        for line in out.splitlines():
            if line.startswith("file://"):
                path = urllib.parse.unquote(line[len("file://"):])
                paths.add(os.path.relpath(path, self.home))
        return paths

    def converge(self, limit):
        """Seconds until the index lists what is on disk; None past `limit`."""
        started = time.perf_counter()
        while time.perf_counter() - started < limit:
            if self.indexed() == self.disk():
                return time.perf_counter() - started
            time.sleep(0.5)
        return None

    def integrity(self):
        try:
            connection = sqlite3.connect(f"file:{self.index}?mode=ro", uri=True)
            # The index's own functions, which its generated columns name:
            # the check reads the columns, not their values.
            for name, count in (("limelight_file_uri", 1), ("limelight_inflate", 1),
                                ("limelight_facets", 3)):
                connection.create_function(name, count, lambda *a: None, deterministic=True)
            result = connection.execute("PRAGMA integrity_check").fetchone()[0]
            connection.close()
            return result == "ok"
        except sqlite3.Error:
            return False

    def write_files(self, count, folder, rng, pause=0.0):
        for i in range(count):
            sub = os.path.join(self.home, folder, f"d{i % 97}")
            os.makedirs(sub, exist_ok=True)
            with open(os.path.join(sub, f"note {i}.txt"), "w") as f:
                f.write(f"fault{i} " + " ".join(rng.choice(WORDS) for _ in range(30)))
            if pause and i % 500 == 0:
                time.sleep(pause)

    def row(self, name, limit):
        seconds = self.converge(limit)
        disk, indexed = self.disk(), self.indexed()
        self.kill(15)
        return {"fault": name, "entries": len(disk), "lost": len(disk - indexed),
                "extra": len(indexed - disk), "seconds": seconds, "integrity": self.integrity()}


WORDS = ("harbour lantern meadow quarry saddle thicket upland valley willow yonder"
         " anchor bramble cinder dapple ember fennel gorse hollow inlet juniper").split()


def storm(bin_dir, work, files, rng):
    instance = Instance(bin_dir, os.path.join(work, "storm"))
    instance.start()
    time.sleep(1)
    killed_at = sorted(rng.sample(range(1, 10), 3))
    for burst in range(10):
        instance.write_files(files // 10, f"burst{burst}", rng)
        if burst in killed_at:
            time.sleep(rng.uniform(0, 1.5))
            instance.kill(9)
            instance.start()
    return instance.row("storm with 3 kill -9", 600)


def full_disk(bin_dir, work, files, rng):
    if os.geteuid() != 0:
        return None
    instance = Instance(bin_dir, os.path.join(work, "full"))
    data = os.path.join(instance.base, "xdg/data")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", data]).returncode != 0:
        return None
    try:
        instance.start()
        time.sleep(1)
        instance.write_files(files, "many", rng)
        deadline = time.time() + 120
        said = False
        while time.time() < deadline and not said:
            said = "cannot be written" in instance.run("limelight", "status").stdout
            time.sleep(0.5)
        subprocess.run(["mount", "-o", "remount,size=2g", data])
        told = "the status said so" if said else "the status never said so"
        return instance.row(f"full disk ({told}), then room", 900)
    finally:
        instance.kill(15)
        subprocess.run(["umount", "-l", data])


def damaged(bin_dir, work, files, rng):
    instance = Instance(bin_dir, os.path.join(work, "damaged"))
    instance.write_files(files, "notes", rng)
    instance.start()
    instance.converge(900)
    rows = []
    for name, middle in (("damaged index (middle)", True), ("damaged index (header)", False)):
        instance.kill(15)
        size = os.path.getsize(instance.index)
        with open(instance.index, "r+b") as f:
            f.seek(size // 2 if middle else 0)
            f.write(os.urandom(65536))
        damaged_at = time.time()
        instance.start()
        # Converged once the damaged file is set aside and a new index
        # matches the disk (the damaged one may list everything meanwhile).
        aside = instance.index + ".damaged"
        deadline = time.time() + 300
        while time.time() < deadline:
            if os.path.exists(aside) and os.stat(aside).st_ctime >= damaged_at:
                break
            time.sleep(0.2)
        else:
            log(f"{name}: the damage was not found within 300 s")
        rows.append(instance.row(name, 900))
    return rows


def permissions(bin_dir, work, files, rng):
    if os.geteuid() == 0 and subprocess.run(
            ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--", "true"]
    ).returncode != 0:
        return None
    instance = Instance(bin_dir, os.path.join(work, "permissions"))
    instance.write_files(files, "open", rng)
    instance.write_files(100, "locked", rng)
    with open(os.path.join(instance.home, "private.txt"), "w") as f:
        f.write("numbat")
    os.chmod(os.path.join(instance.home, "locked"), 0)
    os.chmod(os.path.join(instance.home, "private.txt"), 0)
    instance.start(bound=True)
    time.sleep(5)
    while '"crawlDone":true' not in instance.run("limelight", "status", "--json").stdout:
        time.sleep(0.5)
    os.chmod(os.path.join(instance.home, "locked"), 0o755)
    os.chmod(os.path.join(instance.home, "private.txt"), 0o644)
    row = instance.row("permissions given back", 300)
    found = instance.run("find-in", "numbat").stdout
    row["extra"] += 0 if "private.txt" in found else 1
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="folder of the built executables")
    parser.add_argument("--files", type=int, default=30000)
    parser.add_argument("workdir")
    args = parser.parse_args()
    rng = random.Random(7)
    rows = []
    for name, fault in (("storm", storm), ("full disk", full_disk), ("damaged", damaged),
                        ("permissions", permissions)):
        log(f"{name} …")
        result = fault(os.path.abspath(args.bin), args.workdir, args.files, rng)
        if result is None:
            log(f"{name}: skipped (needs root, or a kernel that lets it mount or drop privileges)")
            continue
        rows += result if isinstance(result, list) else [result]
    print("| fault | entries on disk | lost | listed but gone | converged (s) | integrity_check |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        seconds = "never" if r["seconds"] is None else f"{r['seconds']:.1f}"
        print(f"| {r['fault']} | {r['entries']:,} | {r['lost']} | {r['extra']} | {seconds} |"
              f" {'ok' if r['integrity'] else 'FAILED'} |")


if __name__ == "__main__":
    main()
