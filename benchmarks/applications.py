#!/usr/bin/env python3
"""Application items: how fast an application hands its content to Limelight.

Makes N notes of real prose (the system's own documentation), then measures
with the release binaries, on an index of their own:
  - `limelight index`: the notes pushed as JSON Lines (first push, then the
    same ids again, which updates them), items a second and peak memory;
  - `find-in` over them: the median and worst of words taken from the notes;
  - `limelight delete --domain`: the whole domain removed.
Side by side, the same notes written as text files and indexed by
`limelightd --once` and by `recollindex` (what a user would do without the
application pushing them): items a second for each.

Usage: benchmarks/applications.py --bin BIN_DIR [--items N] [WORKDIR]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

from extraction import log, run_limelight, run_recoll, source_texts


def notes(count, seed=11):
    """`count` notes: a title and a few hundred words of prose each."""
    random.seed(seed)
    words = [w for text in source_texts(400) for w in text.split() if w.isalpha() and len(w) > 3]
    return [(" ".join(random.choices(words, k=4)), " ".join(random.choices(words, k=250)))
            for _ in range(count)]


def measured(command, env, stdin=None):
    """Runs a command; returns its seconds and peak resident memory in MiB."""
    start = time.perf_counter()
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
        process = subprocess.Popen(command, env=env, stdin=source, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command[0]} failed with status {status}")
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("workdir", nargs="?")
    args = parser.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="limelight-apps-")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    made = notes(args.items)
    lines = f"{work}/notes.jsonl"
    with open(lines, "w") as f:
        for n, (title, text) in enumerate(made):
            f.write(json.dumps({"id": str(n), "domain": "org.example.notes", "uri": f"notes://{n}",
                                "attributes": {"displayName": title, "textContent": text}}) + "\n")
    state = f"{work}/state"
    env = dict(os.environ, HOME=f"{work}/home", XDG_DATA_HOME=f"{state}/data",
               XDG_CONFIG_HOME=f"{state}/config", XDG_CACHE_HOME=f"{state}/cache",
               XDG_RUNTIME_DIR=f"{state}/run", XDG_CONFIG_DIRS=f"{state}/none")
    os.makedirs(env["HOME"])
    os.makedirs(f"{state}/config/limelight")
    with open(f"{state}/config/limelight/limelight.conf", "w") as f:
        f.write("applications = no\n")
    size = os.path.getsize(lines) / 1e6
    log(f"{args.items} notes, {size:.1f} MB of JSON Lines: limelight index …")
    push, push_mem = measured([f"{args.bin}/limelight", "index", "-q"], env, lines)
    update, update_mem = measured([f"{args.bin}/limelight", "index", "-q"], env, lines)
    random.seed(5)
    times = []
    for title, _ in random.sample(made, 50):
        word = title.split()[0]
        start = time.perf_counter()
        subprocess.run([f"{args.bin}/find-in", "--limit", "20", word], env=env,
                       stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    delete, _ = measured([f"{args.bin}/limelight", "delete", "--domain", "org.example.notes"], env)

    log("the same notes as text files: limelightd --once, recollindex …")
    folder = f"{work}/files"
    os.makedirs(folder)
    for n, (title, text) in enumerate(made):
        with open(f"{folder}/note-{n}.txt", "w") as f:
            f.write(title + "\n\n" + text + "\n")
    crawl, _, _ = run_limelight(args.bin, folder, f"{work}/crawl")
    recoll = run_recoll(folder, f"{work}/recoll") if shutil.which("recollindex") else None

    def rate(seconds):
        return f"{args.items / seconds:,.0f} items/s ({seconds:.1f} s)"
    print(f"\napplication items: {args.items:,} notes of about 250 words, {size:.1f} MB of JSON Lines\n")
    print("| measure | figure |")
    print("| --- | --- |")
    print(f"| limelight index, first push | {rate(push)}, peak {push_mem:.0f} MiB |")
    print(f"| limelight index, same ids again (update) | {rate(update)}, peak {update_mem:.0f} MiB |")
    print(f"| find-in over them, median / worst of 50 words | "
          f"{statistics.median(times):.1f} / {max(times):.1f} ms |")
    print(f"| limelight delete --domain | {rate(delete)} |")
    print(f"| the same as text files, limelightd --once | {rate(crawl)} |")
    if recoll:
        print(f"| the same as text files, recollindex | {rate(recoll)} |")
        print(f"\nratio: recollindex's time over limelight index's first push: {recoll / push:.1f}x")


if __name__ == "__main__":
    main()
