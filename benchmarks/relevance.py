#!/usr/bin/env python3
"""Known-item relevance: does the file the user means come first?

Indexes a folder with `limelightd --once` and plocate's `updatedb`, makes
known-item queries of several kinds from the files themselves (a distinctive
name word, its prefix, one and two typos, initials, a word found only in the
text, a filtered query), and reports top-1 and top-10 hit rates and mean
reciprocal rank per kind for find-in, `fzf --filter` and `plocate -i`.
Usage: benchmarks/relevance.py --bin BIN_DIR [--queries N] FOLDER
"""
import argparse
import collections
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


def words_of(text):
    return [w for w in re.split(r"[^A-Za-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text)) if w]


def typo(word, rng, edits):
    w = list(word)
    for _ in range(edits):
        i = rng.randrange(1, len(w) - 1)
        w[i], w[i + 1] = w[i + 1], w[i]  # transposition, the commonest slip
    return "".join(w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--queries", type=int, default=240)
    args = ap.parse_args()
    rng = random.Random(7)
    root = os.path.abspath(args.folder)
    work = tempfile.mkdtemp(prefix="limelight-relevance-")
    env = dict(os.environ, HOME=root, XDG_DATA_HOME=f"{work}/data", XDG_CONFIG_HOME=f"{work}/config",
               XDG_RUNTIME_DIR=f"{work}/run", XDG_CACHE_HOME=f"{work}/cache", XDG_CONFIG_DIRS=f"{work}/none")
    print("indexing …", file=sys.stderr)
    subprocess.run([f"{args.bin}/limelightd", "--once", "--quiet", "--root", root], env=env, check=True)
    db = f"{work}/plocate.db"
    subprocess.run(["updatedb", "-l", "0", "-U", root, "-o", db], check=True)
    paths = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        paths.extend(os.path.join(dirpath, f) for f in files if not f.startswith("."))
    name_freq = collections.Counter(w.lower() for p in paths for w in set(words_of(os.path.basename(p))))
    path_words = collections.Counter(w.lower() for p in paths for w in set(words_of(p)))
    cases = []
    kinds = ["exact word", "prefix", "one typo", "two typos", "initials", "content word", "filtered"]
    rng.shuffle(paths)
    per_kind = args.queries // len(kinds)
    counts = collections.Counter()
    for path in paths:
        if all(counts[k] >= per_kind for k in kinds):
            break
        name = os.path.basename(path)
        stem, ext = os.path.splitext(name)
        unique = [w for w in words_of(stem) if len(w) >= 5 and name_freq[w.lower()] == 1]
        if unique:
            w = max(unique, key=len)
            for kind, q in [("exact word", [w.lower()]), ("prefix", [w[:4].lower()]),
                            ("filtered", [w.lower(), f"ext:{ext[1:]}"] if ext else None)]:
                if q and counts[kind] < per_kind:
                    cases.append((kind, q, path)); counts[kind] += 1
            if len(w) >= 5 and counts["one typo"] < per_kind:
                cases.append(("one typo", [typo(w.lower(), rng, 1)], path)); counts["one typo"] += 1
            if len(w) >= 9 and counts["two typos"] < per_kind:
                cases.append(("two typos", [typo(w.lower(), rng, 2)], path)); counts["two typos"] += 1
        parts = words_of(stem)
        if len(parts) >= 3 and counts["initials"] < per_kind:
            initials = "".join(p[0] for p in parts).lower()
            if sum(1 for p in paths if "".join(x[0] for x in words_of(os.path.splitext(os.path.basename(p))[0])).lower() == initials) == 1:
                cases.append(("initials", [initials], path)); counts["initials"] += 1
        if counts["content word"] < per_kind and os.path.getsize(path) < 200_000:
            try:
                text = open(path, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            rare = [w for w in set(re.findall(r"[A-Za-z]{7,}", text)) if path_words[w.lower()] == 0]
            rng.shuffle(rare)
            for w in rare[:20]:
                hits = subprocess.run(["grep", "-rlwi", "--include=*", w, root], capture_output=True, text=True).stdout.split()
                if hits == [path]:
                    cases.append(("content word", [w.lower()], path)); counts["content word"] += 1
                    break

    def rank_limelight(q):
        out = subprocess.run([f"{args.bin}/find-in", "--limit", "10", "--"] + q, env=env, capture_output=True, text=True).stdout
        from urllib.parse import unquote
        return [unquote(u[len("file://"):]) for u in out.split("\n") if u]

    all_paths = "\n".join(paths) + "\n"

    def rank_fzf(q):
        out = subprocess.run(["fzf", "--filter", " ".join(x for x in q if ":" not in x)], input=all_paths, capture_output=True, text=True).stdout
        return out.split("\n")[:10]

    def rank_plocate(q):
        out = subprocess.run(["plocate", "-d", db, "-i", "-l", "10"] + [x for x in q if ":" not in x], capture_output=True, text=True).stdout
        return out.split("\n")[:10]

    tools = [("find-in", rank_limelight)]
    if shutil.which("fzf"):
        tools.append(("fzf --filter", rank_fzf))
    if shutil.which("plocate"):
        tools.append(("plocate -i", rank_plocate))
    stats = {t: collections.defaultdict(lambda: [0, 0, 0.0, 0]) for t, _ in tools}
    for kind, q, target in cases:
        for tool, rank in tools:
            ranked = rank(q)
            s = stats[tool][kind]
            s[3] += 1
            if target in ranked:
                pos = ranked.index(target) + 1
                s[0] += pos == 1
                s[1] += 1
                s[2] += 1 / pos
    print(f"{len(cases)} known-item queries over {len(paths):,} files in {root}\n")
    print(f"{'kind':14} " + " ".join(f"{t + ' top1/top10/MRR':>34}" for t, _ in tools))
    for kind in kinds + ["all"]:
        cells = []
        for tool, _ in tools:
            if kind == "all":
                rows = list(stats[tool].values())
                s = [sum(r[i] for r in rows) for i in range(4)]
            else:
                s = stats[tool][kind]
            n = max(1, s[3])
            cells.append(f"{100 * s[0] / n:5.1f}% {100 * s[1] / n:5.1f}% {s[2] / n:5.3f} (n={s[3]})")
        print(f"{kind:14} " + " ".join(f"{c:>34}" for c in cells))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
