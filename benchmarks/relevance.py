#!/usr/bin/env python3
"""Known-item relevance: does the file the user means come first?

Builds a corpus from Debian packages (documentation, man pages in several
languages, Python source trees, images and icons), adds files named in several
scripts (Chinese, Japanese, Cyrillic, Greek, accented Latin) and notes named by
the man pages' titles in six languages, indexes it with
`limelightd --once`, plocate's `updatedb` and Recoll's `recollindex`, makes
known-item queries of several kinds from the files themselves, and reports
top-1 and top-10 hit rates and mean reciprocal rank per kind for find-in,
`fzf --filter`, `plocate -i` and `recollq`, side by side, with find-in's
time per query (median and slowest) by kind. With --postgres, the same
watcher also sends its entries to a PostgreSQL server the benchmark starts,
and find-in is measured against that shared store too, side by side. With
--meaning, the watcher then runs over the corpus until its third pass has
embedded every document, and find-in is measured served by it, with meaning
search on, beside `find-in-direct` (the words alone, never the model): meaning
must not push down what the words find.

Usage: benchmarks/relevance.py --bin BIN_DIR [--queries N] [--postgres] [--meaning] [WORKDIR]
"""
import argparse
import html
import bisect
import collections
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from urllib.parse import unquote

from bench import MULTISCRIPT

PACKAGES = [
    # documentation and man pages
    "manpages", "manpages-dev", "git-man", "bash-doc", "perl-doc", "python3.11-doc",
    "manpages-de", "manpages-fr", "manpages-ja", "manpages-zh", "manpages-es",
    # source trees
    "python3-requests", "python3-urllib3", "python3-jinja2", "python3-sphinx",
    # images
    "desktop-base", "tango-icon-theme",
]


KINDS = ["exact word", "prefix", "one typo", "two typos", "initials", "abbreviation",
         "content word", "accent-stripped", "CJK", "romanised", "filtered",
         # Of notes named by man-page titles in six languages, whose words
         # the man pages themselves hold in their text.
         "long initials", "partial initials", "accent-stripped name", "CJK in name",
         "Japanese reading", "pinyin", "mixed script"]

# How many notes named by man-page titles, per language.
NOTES_PER_LANGUAGE = 120


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def build_corpus(root, cache):
    os.makedirs(cache, exist_ok=True)
    missing = [p for p in PACKAGES if not glob.glob(os.path.join(cache, f"{p}_*.deb"))]
    if missing:
        log(f"downloading {len(missing)} packages …")
        subprocess.run(["apt-get", "download"] + missing, cwd=cache, check=True,
                       stdout=subprocess.DEVNULL)
    for deb in sorted(glob.glob(os.path.join(cache, "*.deb"))):
        name = os.path.basename(deb).split("_")[0]
        os.makedirs(os.path.join(root, name), exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(root, name)], check=True)
    # Documentation ships compressed: unpack it, as a user's copy would be.
    subprocess.run(["find", root, "-name", "*.gz", "-type", "f", "-exec", "gzip", "-dfq", "{}", "+"])
    for dirpath, dirs, files in os.walk(root):
        for name in files + dirs:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                os.unlink(path)
    folder = os.path.join(root, "multiscript")
    os.makedirs(folder, exist_ok=True)
    for name, reading in MULTISCRIPT:
        with open(os.path.join(folder, f"{name}.txt"), "w") as f:
            f.write(f"{name}\n")
    add_title_notes(root)


def man_titles(root):
    """(language, title) of the corpus's man pages: the words after "\\-" in
    their NAME section, troff escapes removed."""
    titles = []
    for path in sorted(glob.glob(os.path.join(root, "*", "usr", "share", "man", "**", "man[1-8]", "*"),
                                 recursive=True)):
        rel = path.split("/usr/share/man/")[1]
        language = "en" if rel.startswith("man") else rel.split("/")[0][:2]
        try:
            with open(path, encoding="utf-8") as f:
                head = f.read(6000)
        except (UnicodeDecodeError, OSError):
            continue
        match = re.search(r"^\.SH[^\n]*\n(?:\.[^\n]*\n)*[^\n]*?\s\\-\s+([^\n]+(?:\n[^.\n][^\n]*)*)",
                          head, re.M)
        if not match:
            continue
        raw = match.group(1).replace("\\-", "-")
        if re.search(r"\\[(\[*]", raw):
            continue  # special characters (accents among them) troff spells out
        title = re.sub(r"\\f[BIRP]|\\&|\\", "", raw)
        title = re.sub(r"[/\x00-\x1f\"]", " ", title).strip(" .")
        title = re.sub(r"\s+", " ", title)
        if 3 <= len(title) <= 120:
            titles.append((language, title))
    return titles


def add_title_notes(root):
    """Notes named by man-page titles, NOTES_PER_LANGUAGE of each language
    (spaced names with articles and accents, kanji and kana, Chinese), and
    the same titles joined in CamelCase for the Latin ones: the shapes of
    name people give their own files. The man pages hold the same words in
    their text, so a name match has to outrank them."""
    rng = random.Random(11)
    by_language = collections.defaultdict(list)
    for language, title in man_titles(root):
        by_language[language].append(title)
    folder = os.path.join(root, "notes")
    os.makedirs(folder, exist_ok=True)
    for language, titles in sorted(by_language.items()):
        titles = sorted(set(titles))
        rng.shuffle(titles)
        for i, title in enumerate(titles[:NOTES_PER_LANGUAGE]):
            name = title
            if i % 4 == 3 and title.isascii():
                name = "".join(w[:1].upper() + w[1:] for w in re.findall(r"[A-Za-z0-9']+", title))
            with open(os.path.join(folder, f"{name}.txt"), "w") as f:
                f.write(f"notes ({language})\n")


def words_of(text):
    """The words of a name: runs of letters, split at camelCase humps."""
    return re.findall(r"[^\W\d_]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text))


class Vocabulary:
    """Sorted words, for "does any other word start with this?" questions."""

    def __init__(self, words):
        self.words = sorted(set(words))

    def starting_with(self, prefix, limit=3):
        i = bisect.bisect_left(self.words, prefix)
        out = []
        while i < len(self.words) and self.words[i].startswith(prefix) and len(out) < limit:
            out.append(self.words[i])
            i += 1
        return out


def strip_accents(text):
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def typo(word, rng, edits):
    w = list(word)
    for _ in range(edits):
        i = rng.randrange(1, len(w) - 1)
        op = rng.randrange(4)
        if op == 0:
            w[i], w[i + 1] = w[i + 1], w[i]
        elif op == 1:
            del w[i]
        elif op == 2:
            w[i] = rng.choice([c for c in "aeioustrnl" if c != w[i]])
        else:
            w.insert(i, rng.choice("aeioustrnl"))
    return "".join(w)


def abbreviate(word, rng):
    """Leaves out two letters after the first, vowels first ("readme" -> "rdme")."""
    w = list(word)
    for _ in range(2):
        vowels = [i for i in range(1, len(w) - 1) if w[i] in "aeiou"]
        del w[rng.choice(vowels or list(range(1, len(w) - 1)))]
    return "".join(w)


def abbreviates(query, word):
    """`query` is `word` with one or two letters after the first left out."""
    if not (0 < len(word) - len(query) <= 2) or query[:1] != word[:1]:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in query[1:])


def edit_distance(a, b, limit):
    """The optimal string alignment distance of two words (adjacent letters
    swapped count once), or more than `limit` when it is."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2, previous = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def ancestors(folder, root):
    """A folder and the folders above it, up to (not including) `root`."""
    out = []
    while folder.startswith(root + "/"):
        out.append(folder)
        folder = os.path.dirname(folder)
    return out


def text_of(path):
    """The text a user sees in a file: a manual page's without roff."""
    try:
        # Limelight reads up to 8 MB of a text: a larger file's words are
        # found there too, so they must be known here.
        if os.path.getsize(path) > 8 << 20:
            return None
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return None
    if path.endswith((".html", ".htm")):
        return html_text(text)
    return roff_text(text) if re.search(r"^\.(TH|SH|Dd) ", text, re.M) else text


def html_text(markup):
    """A web page's visible words, as Limelight's reader splits them: no
    scripts or styles; a block's tags end a word, an inline one (`<wbr>`,
    `<em>`) does not."""
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>|<!--.*?-->", " ", markup)
    markup = re.sub(r"(?i)</?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|pre|dd|dt|dl|"
                    r"blockquote|title|header|footer|hr)\b[^>]*>", "\n", markup)
    return html.unescape(re.sub(r"<[^>]*>", "", markup))


ROFF_LAYOUT = ("TH", "de", "ds", "nr", "if", "ie", "el", "so", "ig", "Dd", "Dt", "Os")


def roff_text(text):
    """A manual page's words: requests' arguments without the requests,
    escapes (fonts, named characters, strings, sizes) taken out."""
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            parts = line[1:].split(None, 1)
            if not parts or parts[0].startswith('\\"') or parts[0] in ROFF_LAYOUT:
                continue
            line = parts[1] if len(parts) > 1 else ""
        line = re.sub(r'\\".*', "", line)
        line = re.sub(r"\\[fF*](\[[^\]]*\]|\(..|.)|\\\((..)|\\\[[^\]]*\]|\\s[-+]?\d+|\\.", " ", line)
        lines.append(line)
    return "\n".join(lines)


def make_cases(root, paths, rng, per_kind):
    """Known-item queries made from the files. A query must mean its file:
    typos, abbreviations and initials that are themselves the start of another
    name word, and text words that start a word of another file, are left out
    (another file would rightly come first)."""
    # Folders are found by name too: a word that names one is no file's own.
    folders = {os.path.dirname(p) for p in paths}
    folders = {f for d in folders for f in ancestors(d, root)}
    name_freq = collections.Counter(w.lower() for p in paths + sorted(folders)
                                    for w in set(words_of(os.path.basename(p))))
    path_words = collections.Counter(w.lower() for p in paths for w in set(words_of(p)))
    name_vocabulary = Vocabulary(strip_accents(w) for w in name_freq)
    initials_of = lambda p: "".join(x[0] for x in words_of(os.path.splitext(os.path.basename(p))[0])).lower()
    initials_freq = collections.Counter(initials_of(p) for p in paths)
    # Which files hold which words (accents stripped, as a user may type them).
    holders = collections.defaultdict(set)
    texts = {}
    for p in paths:
        text = text_of(p)
        if text is None:
            continue
        texts[p] = text
        for w in set(re.findall(r"\w+", strip_accents(text.lower()))):
            holders[w].add(p)
    text_vocabulary = Vocabulary(holders)

    def means_only(word, path):
        """No other file holds a word starting with `word`."""
        others = set()
        i = bisect.bisect_left(text_vocabulary.words, word)
        while i < len(text_vocabulary.words) and text_vocabulary.words[i].startswith(word):
            others |= holders[text_vocabulary.words[i]]
            if len(others) > 1:
                return False
            i += 1
        return others == {path}

    def starts_a_name_word(query):
        return bool(name_vocabulary.starting_with(query, 1))

    # The words a name search knows besides the words themselves: the
    # initials of names, and the titles of manual pages (their NAME lines),
    # which are searched with the names.
    titles = set()
    for text in texts.values():
        name_line = re.search(r"^(NAME|NOM|BEZEICHNUNG|NOMBRE|名前|名称|名字)\s*\n(.*)", text, re.M)
        if name_line:
            titles |= {strip_accents(w.lower()) for w in words_of(name_line.group(2))}
    by_first_letter = collections.defaultdict(list)
    by_second_letter = collections.defaultdict(list)
    for w in set(name_vocabulary.words) | set(initials_freq) | titles:
        if w:
            by_first_letter[w[0]].append(w)
        if len(w) > 1:
            by_second_letter[w[1]].append(w)

    def reads_as_another(query, word, typo_of_word=False):
        """Whether a search would rightly read `query` as another name word
        than `word`: one it is a typo of (one edit, two when either has eight
        letters or more and the query seven or more), or that it abbreviates
        too (a typo is the likelier reading). For a typo of `word`, another
        word as near as `word` (or nearer) is as right a reading."""
        # Its first letter may be the typo: one added, or one left out.
        candidates = (by_first_letter[query[0]] + by_first_letter[query[1]]
                      + by_second_letter[query[0]])
        for other in candidates:
            if other == word or abs(len(other) - len(query)) > 2:
                continue
            limit = 2 if len(query) >= 7 and max(len(query), len(other)) >= 8 else 1
            if typo_of_word:
                limit = min(limit, edit_distance(query, word, 2))
                if edit_distance(query, other, limit) <= limit:
                    return True
            elif edit_distance(query, other, limit) <= limit or abbreviates(query, other):
                return True
        return False

    # Which files hold each run of three Chinese or Japanese characters.
    cjk_holders = collections.defaultdict(set)
    for p, text in texts.items():
        for run in re.findall(r"[\u4e00-\u9fff\u3040-\u30ff]{3,}", text):
            for i in range(len(run) - 2):
                cjk_holders[run[i:i + 3]].add(p)
    cases = []
    counts = collections.Counter()

    def add(kind, query, path):
        if counts[kind] < per_kind:
            cases.append((kind, query, path))
            counts[kind] += 1

    order = paths[:]
    rng.shuffle(order)
    for path in order:
        name = os.path.basename(path)
        stem, ext = os.path.splitext(name)
        unique = [w for w in words_of(stem) if len(w) >= 5 and w.isascii() and name_freq[w.lower()] == 1]
        if unique:
            w = max(unique, key=len).lower()
            add("exact word", [w], path)
            # As the user types: the shortest prefix (4 letters or more) that
            # starts no other name word.
            for n in range(4, len(w)):
                if name_vocabulary.starting_with(w[:n], 2) == [w]:
                    add("prefix", [w[:n]], path)
                    break
            for kind, edits, shortest in [("one typo", 1, 5), ("two typos", 2, 8)]:
                if len(w) >= shortest:
                    t = typo(w, rng, edits)
                    # Neither the start of another name word nor of a word
                    # in some file's text: that file would rightly come first.
                    if (t != w and not starts_a_name_word(t) and not text_vocabulary.starting_with(t, 1)
                            and not reads_as_another(t, w, typo_of_word=True)):
                        add(kind, [t], path)
            if 6 <= len(w) <= 10:
                a = abbreviate(w, rng)
                if not starts_a_name_word(a) and not reads_as_another(a, w):
                    add("abbreviation", [a], path)
            if ext:
                add("filtered", [w, f"ext:{ext[1:]}"], path)
        parts = words_of(stem)
        initials = initials_of(path)
        if len(parts) >= 3 and initials_freq[initials] == 1 and not starts_a_name_word(initials):
            add("initials", [initials], path)
        text = texts.get(path)
        if text:
            rare = sorted(w for w in set(re.findall(r"[A-Za-z]{7,}", text))
                          if path_words[w.lower()] == 0 and means_only(w.lower(), path))
            if rare:
                add("content word", [rng.choice(rare).lower()], path)
            accented = sorted(w for w in set(re.findall(r"\w{5,}", text))
                              if strip_accents(w) != w and w.isalpha()
                              and all(ord(c) < 0x250 for c in w)
                              and means_only(strip_accents(w.lower()), path))
            if accented:
                add("accent-stripped", [strip_accents(rng.choice(accented)).lower()], path)
            cjk = sorted(set(re.findall(r"[\u4e00-\u9fff\u3040-\u30ff]{4,}", text)))
            rng.shuffle(cjk)
            for run in cjk[:5]:
                piece = run[:3]
                if len(cjk_holders.get(piece, ())) == 1:
                    add("CJK", [piece], path)
                    break
    add_note_cases(root, paths, add)
    for name, reading in MULTISCRIPT:
        path = os.path.join(root, "multiscript", f"{name}.txt")
        add("romanised", [reading], path)
        if re.search(r"[\u4e00-\u9fff\u3040-\u30ff]", name):
            add("CJK", [name[1:3] if len(name) > 3 else name[:2]], path)
        elif strip_accents(name) != name:
            add("accent-stripped", [strip_accents(name).split()[0].lower()], path)
    return cases, counts


def reading(text, command):
    """The Latin reading of a run of Chinese or Japanese characters, from a
    program that is not Limelight's (KAKASI, ICU's uconv); None without it."""
    try:
        out = subprocess.run(command, input=text, capture_output=True, encoding="utf-8",
                             errors="replace", check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    word = re.sub(r"[^a-z]", "", out.lower())
    return word or None


def add_note_cases(root, paths, add):
    """Queries for the notes named by man-page titles: each finds its note by
    the shape of its name alone, while man pages hold the same words in their
    text."""
    notes = sorted(p for p in paths if os.path.dirname(p) == os.path.join(root, "notes"))
    stems = {p: os.path.splitext(os.path.basename(p))[0] for p in paths}
    words = lambda stem: re.findall(r"[^\W\d_]+|\d+", re.sub(r"([a-z])([A-Z])", r"\1 \2", stem))
    initials = {p: "".join(w[0] for w in words(stem)).lower() for p, stem in stems.items()}
    folded_words = collections.Counter(strip_accents(w.lower()) for p in paths for w in set(words(stems[p])))
    all_names = "\n".join(stems.values())
    cjk = "[\u4e00-\u9fff\u3040-\u30ff]"
    han = "[\u4e00-\u9fff]"
    # Every Chinese or Japanese name read both ways, to keep readings that
    # another name's reading holds too (simplified and traditional forms of
    # one word read alike).
    cjk_names = sorted({stem for stem in stems.values() if re.search(han, stem)})
    all_readings = ""
    for command in (["kakasi", "-i", "utf8", "-o", "utf8", "-Ja", "-Ha", "-Ka"],
                    ["uconv", "-x", "Han-Latin; Latin-ASCII; Lower"]):
        try:
            out = subprocess.run(command, input="\n".join(cjk_names), capture_output=True,
                                 encoding="utf-8", errors="replace", check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        all_readings += "\n" + "\n".join(re.sub(r"[^a-z]", "", line.lower()) for line in out.split("\n"))

    def unique_initials(prefix):
        return sum(1 for v in initials.values() if v.startswith(prefix)) == 1

    for path in notes:
        stem = stems[path]
        parts = words(stem)
        whole = initials[path]
        if 7 <= len(parts) <= 16 and whole.isascii() and unique_initials(whole):
            add("long initials", [whole], path)
        if len(parts) >= 5 and whole.isascii():
            for n in range(4, len(whole)):
                if unique_initials(whole[:n]):
                    if n < len(whole):
                        add("partial initials", [whole[:n]], path)
                    break
        accented = [w for w in parts if strip_accents(w) != w and len(w) >= 5
                    and all(ord(c) < 0x250 for c in w)
                    and folded_words[strip_accents(w.lower())] == 1]
        if accented:
            add("accent-stripped name", [strip_accents(accented[0]).lower()], path)
        runs = re.findall(f"{cjk}{{4,}}", stem)
        if runs:
            piece = runs[0][1:3]
            if all_names.count(piece) == 1:
                add("CJK in name", [piece], path)
        has_kana = re.search("[\u3040-\u30ff]", stem)
        for run in re.findall(f"{han}{{2,}}", stem):
            run = run[:2] if not has_kana or len(run) > 4 else run  # a word, as typed
            if all_names.count(run) != 1:
                continue
            if has_kana:
                r = reading(run, ["kakasi", "-i", "utf8", "-o", "utf8", "-Ja"])
                if r and len(r) >= 4 and r not in folded_words and all_readings.count(r) <= 1:
                    add("Japanese reading", [r], path)
            else:
                r = reading(run, ["uconv", "-x", "Han-Latin; Latin-ASCII; Lower"])
                if r and len(r) >= 4 and r not in folded_words and all_readings.count(r) <= 1:
                    add("pinyin", [r], path)
            break
        mixed = re.search(f"[A-Za-z][A-Za-z0-9]{{2,}}{cjk}{{2}}|{cjk}{{2}}[A-Za-z][A-Za-z0-9]{{2,}}", stem)
        if mixed and all_names.count(mixed.group(0)) == 1:
            add("mixed script", [mixed.group(0)], path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workdir", nargs="?")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--queries", type=int, default=450)
    ap.add_argument("--postgres", action="store_true",
                    help="also measure find-in against a shared PostgreSQL store")
    ap.add_argument("--meaning", action="store_true",
                    help="measure find-in served by the watcher with meaning search on, "
                         "beside the words alone")
    args = ap.parse_args()
    if args.meaning and args.postgres:
        ap.error("--meaning and --postgres are measured in separate runs")
    rng = random.Random(7)
    work = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="limelight-relevance-"))
    root = os.path.join(work, "corpus")
    if not os.path.isdir(root):
        log("building the corpus …")
        build_corpus(root, os.path.join(work, "debs"))
    state = os.path.join(work, "state")
    # A fresh index for find-in and plocate; Recoll's own index is brought up
    # to date in place (recollindex skips files it has seen).
    for name in ("data", "config", "run", "cache", "plocate.db"):
        shutil.rmtree(os.path.join(state, name), ignore_errors=True)
    if os.path.exists(os.path.join(state, "plocate.db")):
        os.unlink(os.path.join(state, "plocate.db"))
    env = dict(os.environ, HOME=root, XDG_DATA_HOME=f"{state}/data", XDG_CONFIG_HOME=f"{state}/config",
               XDG_RUNTIME_DIR=f"{state}/run", XDG_CACHE_HOME=f"{state}/cache",
               XDG_CONFIG_DIRS=f"{state}/none")
    store = None
    if args.postgres:
        import pgserver
        server = pgserver.Server()
        store = server.database("relevance")
    log("indexing: limelightd --once …")
    subprocess.run([f"{args.bin}/limelightd", "--once", "--quiet", "--root", root]
                   + (["--store", store] if store else []), env=env, check=True)
    watcher = start_meaning(args.bin, root, env) if args.meaning else None
    db = f"{state}/plocate.db"
    log("indexing: updatedb …")
    subprocess.run(["updatedb", "-l", "0", "-U", root, "-o", db], check=True)
    recoll = f"{state}/recoll"
    have_recoll = shutil.which("recollindex") is not None
    if have_recoll:
        os.makedirs(recoll, exist_ok=True)
        with open(f"{recoll}/recoll.conf", "w") as f:
            f.write(f"topdirs = {root}\nloglevel = 1\nnoaspell = 1\n")
        log("indexing: recollindex …")
        subprocess.run(["recollindex", "-c", recoll], env=dict(env, HOME=state),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    paths = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        paths.extend(os.path.join(dirpath, f) for f in files if not f.startswith("."))
    paths.sort()
    cases, counts = make_cases(root, paths, rng, args.queries // len(KINDS))

    def rank_limelight(q):
        out = subprocess.run([f"{args.bin}/find-in", "--limit", "10", "--"] + q, env=env,
                             capture_output=True, text=True).stdout
        return [unquote(u[len("file://"):]) for u in out.split("\n") if u]

    def rank_shared(q):
        out = subprocess.run([f"{args.bin}/find-in", "--store", store, "--limit", "10", "--"] + q,
                             env=env, capture_output=True, text=True).stdout
        # file://HOST/path: the path begins at the host's end.
        return [unquote(u[u.index("/", len("file://")):]) for u in out.split("\n") if u]

    all_paths = "\n".join(paths) + "\n"

    def words_only(q):
        return [x for x in q if ":" not in x]

    def rank_fzf(q):
        out = subprocess.run(["fzf", "--filter", " ".join(words_only(q))], input=all_paths,
                             capture_output=True, text=True).stdout
        return out.split("\n")[:10]

    def rank_plocate(q):
        out = subprocess.run(["plocate", "-d", db, "-i", "-l", "10"] + words_only(q),
                             capture_output=True, text=True).stdout
        return out.split("\n")[:10]

    def rank_recoll(q):
        out = subprocess.run(["recollq", "-c", recoll, "-b", "-n", "10", " ".join(q)],
                             env=dict(env, HOME=state), capture_output=True, text=True).stdout
        return [unquote(u[len("file://"):]) for u in out.split("\n") if u.startswith("file://")]

    def rank_direct(q):
        out = subprocess.run([f"{args.bin}/find-in-direct", "--limit", "10", "--"] + q, env=env,
                             capture_output=True, text=True).stdout
        return [unquote(u[len("file://"):]) for u in out.split("\n") if u]

    tools = [("find-in", rank_limelight)]
    if watcher:
        tools = [("find-in with meaning", rank_limelight), ("find-in, words alone", rank_direct)]
    if store:
        tools.append(("find-in PostgreSQL", rank_shared))
    if shutil.which("fzf"):
        tools.append(("fzf --filter", rank_fzf))
    if shutil.which("plocate"):
        tools.append(("plocate -i", rank_plocate))
    if have_recoll:
        tools.append(("recollq", rank_recoll))
    stats = {t: collections.defaultdict(lambda: [0, 0, 0.0, 0]) for t, _ in tools}
    misses = []
    # find-in's time per query, with process start, by kind: a shape that
    # ranks right but takes seconds is a miss too.
    times = collections.defaultdict(list)
    # The store against the local index, query by query: their top 10, in order.
    apart = []
    for kind, q, target in cases:
        tops = {}
        for tool, rank in tools:
            started = time.perf_counter()
            ranked = rank(q)
            tops[tool] = ranked
            if tool.startswith("find-in"):
                times[(tool, kind)].append(time.perf_counter() - started)
            s = stats[tool][kind]
            s[3] += 1
            if target in ranked:
                pos = ranked.index(target) + 1
                s[0] += pos == 1
                s[1] += 1
                s[2] += 1 / pos
            if tool.startswith("find-in") and (not ranked or ranked[0] != target):
                misses.append((tool, kind, q, os.path.relpath(target, root),
                               os.path.relpath(ranked[0], root) if ranked else "-"))
        if store and tops["find-in"] != tops["find-in PostgreSQL"]:
            apart.append((kind, q, tops["find-in"], tops["find-in PostgreSQL"]))
    print(f"{len(cases)} known-item queries over {len(paths):,} files from {len(PACKAGES)} Debian "
          f"packages, {len(MULTISCRIPT)} multi-script names and "
          f"{sum(1 for p in paths if os.path.dirname(p) == os.path.join(root, 'notes'))} notes "
          f"named by man-page titles\n")
    timed = [t for t, _ in tools if t.startswith("find-in")]
    print("| kind | " + " | ".join(f"{t} top1 / top10 / MRR" for t, _ in tools)
          + "".join(f" | {t} ms median / max" for t in timed) + " |")
    print("| --- | " + " | ".join("---" for _ in tools) + " | ---" * len(timed) + " |")
    for kind in KINDS + ["all"]:
        cells = []
        for tool, _ in tools:
            if kind == "all":
                rows = list(stats[tool].values())
                s = [sum(r[i] for r in rows) for i in range(4)]
            else:
                s = stats[tool][kind]
            n = max(1, s[3])
            cells.append(f"{100 * s[0] / n:.1f}% / {100 * s[1] / n:.1f}% / {s[2] / n:.3f}")
        for tool in timed:
            spent = sorted(t for (who, k), ts in times.items() if who == tool
                           and kind in (k, "all") for t in ts)
            if spent:
                cells.append(f"{1000 * spent[len(spent) // 2]:.1f} / {1000 * spent[-1]:.0f}")
        label = kind if kind == "all" else f"{kind} (n={counts[kind]})"
        print(f"| {label} | " + " | ".join(cells) + " |")
    if store:
        alike = len(cases) - len(apart)
        print(f"\nfind-in PostgreSQL against find-in: {alike} of {len(cases)} queries give the "
              "same top 10, in the same order")
        if apart and os.environ.get("RELEVANCE_MISSES"):
            print("\nthe store's top 10 apart from the local index's (kind, query, local, store):",
                  file=sys.stderr)
            for kind, q, local, shared in apart:
                print(f"   {kind}  {q}", file=sys.stderr)
                print("     local", [os.path.relpath(p, root) for p in local], file=sys.stderr)
                print("     store", [os.path.relpath(p, root) for p in shared], file=sys.stderr)
    if watcher:
        watcher.terminate()
        watcher.wait()
    if misses and os.environ.get("RELEVANCE_MISSES"):
        print("\nfind-in misses (store, kind, query, wanted, got first):", file=sys.stderr)
        for miss in misses:
            print("  ", *miss, sep="  ", file=sys.stderr)


def start_meaning(bin_dir, root, env):
    """Starts the watcher over the crawled corpus and waits until its third
    pass has embedded every document worth it."""
    from meaning import wait_for_meaning, wait_for_service
    log("meaning: the watcher's third pass …")
    watcher = subprocess.Popen([f"{bin_dir}/limelightd", "--quiet", "--root", root], env=env)
    wait_for_service(env)
    meaning = wait_for_meaning(lambda tool: f"{bin_dir}/{tool}", env, time.time() + 4 * 3600)
    log(f"meaning: {meaning.get('embedded')} documents embedded")
    return watcher


if __name__ == "__main__":
    main()
