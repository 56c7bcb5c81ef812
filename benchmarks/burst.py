#!/usr/bin/env python3
"""A burst of new files, on a quiet machine and on a busy one.

The watcher runs over an isolated home that already holds a few thousand
files (its first crawl done, so it is only watching). Then FILES new small
text files are written into 100 new folders as fast as Python writes them,
and the benchmark asks `find-in --count` twice a second until every one is
found by a word of its name (`name:`) and by a word of its text that is in
no name. Each size runs twice: on a quiet machine, and with every core kept
busy by a stress process at normal priority (one busy loop per core, the way
another index or a build would load it), the watcher at its own priorities.

Times are from the end of the writing (the writing's own time beside them);
the goal is names in 5 s and text in 30 s at 30,000 files under load.

What it cannot see: larger files (each note is ~300 bytes), bursts into
folders that already exist (new folders here, so the watcher adds watches
as it goes), a disk slower than this one's, and loads that compete for I/O
rather than CPU. The writing's own time is not the watcher's: on a file
system where large trees were deleted lately, ext4 looks for free inodes
past the recently deleted ones, and the same 30,000 files took 8 to 86 s to
write here (the writer's system time, printed beside it, 3 to 40 s);
the watcher's times after the writing move with it. Compare runs whose
writing took alike, or give WORKDIR on a fresh file system.

Usage: benchmarks/burst.py --bin BIN [--sizes 30000,100000] [--machine both|quiet|busy] WORKDIR
"""
import argparse
import os
import random
import subprocess
import sys
import time
from contextlib import nullcontext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faults import Instance, WORDS, log  # noqa: E402


class Load:
    """One busy loop per core at normal priority, until stopped."""

    def __init__(self):
        self.workers = []

    def __enter__(self):
        for _ in range(os.cpu_count() or 2):
            self.workers.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        return self

    def __exit__(self, *exc):
        for worker in self.workers:
            worker.kill()
            worker.wait()


def count(instance, *query):
    out = instance.run("find-in", "--count", *query).stdout.strip()
    return int(out) if out.isdigit() else 0


def wait_idle(instance, limit=900):
    deadline = time.time() + limit
    while time.time() < deadline:
        status = instance.run("limelight", "status", "--json").stdout
        if '"crawlDone":true' in status and '"contentDone":true' in status:
            return
        time.sleep(0.5)
    raise SystemExit("the first crawl did not end")


def burst(bin_dir, work, files, loaded, rng):
    instance = Instance(bin_dir, os.path.join(work, f"burst-{files}-{'load' if loaded else 'quiet'}"))
    instance.write_files(3000, "before", rng)
    instance.start()
    wait_idle(instance)
    result = {"files": files, "load": loaded}
    with Load() if loaded else nullcontext():
        started, times = time.perf_counter(), os.times()
        for i in range(files):
            folder = os.path.join(instance.home, "burst", f"f{i % 100:02}")
            if i < 100:
                os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"quokkanote {i}.txt"), "w") as f:
                f.write("wallabytext " + " ".join(rng.choice(WORDS) for _ in range(40)) + "\n")
        written = time.perf_counter()
        result["writing"] = written - started
        result["system"] = os.times().system - times.system
        names = text = None
        while time.perf_counter() - written < 600 and (names is None or text is None):
            if names is None and count(instance, "name:quokkanote") == files:
                names = time.perf_counter() - written
            if text is None and count(instance, "wallabytext") == files:
                text = time.perf_counter() - written
                # The names may have come between the two questions.
                if names is None and count(instance, "name:quokkanote") == files:
                    names = time.perf_counter() - written
            time.sleep(0.5)
        result["names"], result["text"] = names, text
    status = instance.run("limelight", "status", "--json").stdout
    overflows = __import__("re").search(r'"overflows":(\d+)', status)
    result["overflows"] = int(overflows.group(1)) if overflows else 0
    instance.kill(15)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="folder of the built executables")
    parser.add_argument("--sizes", default="30000,100000")
    parser.add_argument("--machine", choices=("both", "quiet", "busy"), default="both")
    parser.add_argument("workdir")
    args = parser.parse_args()
    rng = random.Random(11)
    rows = []
    for files in (int(s) for s in args.sizes.split(",")):
        for loaded in {"both": (False, True), "quiet": (False,), "busy": (True,)}[args.machine]:
            log(f"burst of {files:,} files, {'busy' if loaded else 'quiet'} machine …")
            rows.append(burst(os.path.abspath(args.bin), args.workdir, files, loaded, rng))

    def seconds(value):
        return "never (600 s)" if value is None else f"{value:.1f}"

    print("| files | machine | writing (s) | writer's system time (s) | all found by name (s) |"
          " all found by text (s) | inotify overflows |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['files']:,} | {'busy (stress on every core)' if r['load'] else 'quiet'} |"
              f" {r['writing']:.1f} | {r['system']:.1f} | {seconds(r['names'])} |"
              f" {seconds(r['text'])} |"
              f" {r['overflows']} |")


if __name__ == "__main__":
    main()
