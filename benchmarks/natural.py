#!/usr/bin/env python3
"""Queries in a person's words: does "pdfs from last week" find the PDFs of last week?

Lays out a tree whose files' kinds, dates, sizes, authors, senders,
recipients and photo dates are set (PDFs, PNG and JPEG photos with EXIF dates,
MP4 videos of up to 2 GB as sparse files, WAV songs with an artist, e-mails,
web pages with an author, notes), indexes it with `limelightd --once`, and asks
find-in each intent in six languages from a fixed moment (`--now`), and the
same intent written in the filter language. A query scores when it returns
exactly the intended files: every one of them, nothing else. Reports per
shape and per language, natural words beside the filter language, and what
reading a phrase costs (`find-in --explain`, in process: the reader alone).

Usage: benchmarks/natural.py --bin BIN_DIR [WORKDIR]
"""
import argparse
import collections
import datetime
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from bench import wait_for_crawl
from extraction import pdf

NOW = "2026-11-27T12:00:00Z"
UTC = datetime.timezone.utc


def day(text, hour=10):
    return datetime.datetime.fromisoformat(text).replace(hour=hour, tzinfo=UTC)


def jpeg(taken):
    """A JPEG with an EXIF block holding the date taken, then a 64×48 frame."""
    def entry(tag, kind, count, value):
        return struct.pack(">HHI", tag, kind, count) + value
    stamp = taken.strftime("%Y:%m:%d %H:%M:%S").encode() + b"\0"
    # IFD0 at 8: one entry, the Exif IFD's offset; the Exif IFD after it.
    ifd0 = struct.pack(">H", 1) + entry(0x8769, 4, 1, struct.pack(">I", 8 + 18)) + b"\0\0\0\0"
    data_at = 8 + 18 + 18
    exif_ifd = (struct.pack(">H", 1) + entry(0x9003, 2, len(stamp), struct.pack(">I", data_at))
                + b"\0\0\0\0")
    tiff = b"MM\0\x2a" + struct.pack(">I", 8) + ifd0 + exif_ifd + stamp
    app1 = b"Exif\0\0" + tiff
    frame = b"\x08" + struct.pack(">HH", 48, 64) + b"\x01\x01\x11\x00"
    return (b"\xff\xd8\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
            + b"\xff\xc0" + struct.pack(">H", len(frame) + 2) + frame + b"\xff\xd9")


def png(extra=0):
    """A 1×1 PNG, followed by `extra` bytes (a large photo's size)."""
    import zlib
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b"") + b"\0" * extra)


def wav(artist, title):
    """Half a second of silence with an ID3 chunk naming its title and artist."""
    samples = b"\0\0" * 4000
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
    frames = b""
    for frame_id, text in ((b"TIT2", title), (b"TPE1", artist)):
        body = b"\3" + text.encode()
        frames += frame_id + struct.pack(">I", len(body)) + b"\0\0" + body
    size = len(frames)
    tag = b"ID3\4\0\0" + bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F]) + frames
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples))
            + samples + b"id3 " + struct.pack("<I", len(tag)) + tag + (b"\0" if len(tag) % 2 else b""))
    return b"RIFF" + struct.pack("<I", len(body)) + body


def mp4():
    """The start of an MP4 file (its type box), as a video's first bytes."""
    return struct.pack(">I", 24) + b"ftypisom" + struct.pack(">I", 512) + b"isomiso2" + struct.pack(">I", 8) + b"free"


def mail(sender, recipient, subject, date):
    return (f"Return-Path: <x@example.org>\nFrom: {sender}\nTo: {recipient}\nSubject: {subject}\n"
            f"Date: {date.strftime('%a, %d %b %Y %H:%M:%S +0000')}\nMessage-ID: <{subject.replace(' ', '.')}@example.org>\n"
            f"Content-Type: text/plain; charset=utf-8\n\n{subject}: the figures are attached.\n").encode()


def page(title, author, text):
    return (f"<html><head><title>{title}</title><meta name=\"author\" content=\"{author}\"></head>"
            f"<body><p>{text}</p></body></html>").encode()


# Each file: its path, bytes (or a sparse size for a video), modification
# date, and what the truth knows of it: kind, authors, recipients, date
# taken, words.
ANNA = "Anna Berg <anna@example.org>"
BOB = "Bob Stone <bob@example.org>"
FILES = [
    ("Documents/report-q3.pdf", pdf("Quarterly report\nFigures for the third quarter"), day("2026-11-18"), dict(kind="pdf")),
    ("Documents/minutes.pdf", pdf("Minutes of the meeting\nDecisions"), day("2026-11-20"), dict(kind="pdf")),
    ("Documents/invoice.pdf", pdf("Invoice\nDue in thirty days"), day("2026-11-27", 9), dict(kind="pdf")),
    ("Documents/tax-2025.pdf", pdf("Tax return\nIncome and deductions"), day("2025-03-02"), dict(kind="pdf")),
    ("Documents/lease.pdf", pdf("Lease agreement\nTerms"), day("2026-01-10"), dict(kind="pdf")),
    ("Pictures/beach.png", png(), day("2026-11-26"), dict(kind="image")),
    ("Pictures/panorama.png", png(12 * 1024 * 1024), day("2026-08-01"), dict(kind="image", size=12 * 1024 * 1024)),
    ("Pictures/icon.png", png(), day("2026-06-01"), dict(kind="image")),
    ("Pictures/lake.png", png(), day("2026-11-26", 18), dict(kind="image")),
    ("Pictures/may-trip.jpg", jpeg(day("2026-05-14")), day("2026-11-02"), dict(kind="image", taken="2026-05")),
    ("Pictures/spring.jpg", jpeg(day("2024-03-03")), day("2026-11-02"), dict(kind="image", taken="2024-03")),
    ("Videos/clip.mp4", 3 * 1024 * 1024, day("2026-11-23"), dict(kind="video")),
    ("Videos/holiday-film.mp4", 2 * 1024 ** 3, day("2026-10-05"), dict(kind="video", big=True)),
    ("Videos/wedding.mp4", 1536 * 1024 ** 2, day("2025-12-24"), dict(kind="video", big=True)),
    ("Videos/screencast.mp4", 40 * 1024 ** 2, day("2025-07-07"), dict(kind="video")),
    ("Music/so-what.wav", wav("Miles Davis", "So What"), day("2026-02-02"), dict(kind="audio", authors="miles davis")),
    ("Music/blue-in-green.wav", wav("Miles Davis", "Blue in Green"), day("2026-02-03"), dict(kind="audio", authors="miles davis")),
    ("Music/sings.wav", wav("Chet Baker", "My Funny Valentine"), day("2026-02-04"), dict(kind="audio", authors="chet baker")),
    ("Mail/budget.eml", mail(ANNA, BOB, "The budget for 2027", day("2026-11-19")), day("2026-11-19"),
     dict(kind="email", authors="anna", to="bob", words={"budget"})),
    ("Mail/reply.eml", mail(BOB, ANNA, "Re the budget for 2027", day("2026-11-20")), day("2026-11-20"),
     dict(kind="email", authors="bob", to="anna", words={"budget"})),
    ("Mail/party.eml", mail(ANNA, BOB, "Party on Friday", day("2026-11-25")), day("2026-11-25"),
     dict(kind="email", authors="anna", to="bob")),
    ("Mail/newsletter.eml", mail("David Hale <david@example.org>", "Bill Ray <bill@example.org>", "Newsletter", day("2026-09-03")),
     day("2026-09-03"), dict(kind="email", authors="david", to="bill")),
    ("Web/asyncio-guide.html", page("Asyncio guide", "Anna Berg", "How to use asyncio event loops and tasks."),
     day("2026-11-10"), dict(kind="document", authors="anna", words={"asyncio"})),
    ("Web/threads.html", page("Threads", "Bob Stone", "Threads and locks without asyncio's help."),
     day("2026-10-10"), dict(kind="document", authors="bob", words={"asyncio"})),
    ("Notes/yesterday.txt", b"A note named for a day.\n", day("2024-01-01"), dict(kind="text")),
    ("Notes/groceries.txt", b"Milk, bread.\n", day("2026-11-26", 11), dict(kind="text")),
    ("Notes/last week notes.md", b"# Notes\n\nWhat happened.\n", day("2023-05-05"), dict(kind="document")),
    ("Notes/photos.txt", b"Which photos to print.\n", day("2023-05-06"), dict(kind="text")),
]


def expected(predicate):
    return {path for path, _, _, facts in FILES if predicate(facts, _mtime(path))}


def _mtime(path):
    return next(m for p, _, m, _ in FILES if p == path)


def in_days(first, last):
    return lambda m: day(first, 0) <= m < day(last, 0) + datetime.timedelta(days=1)


LAST_WEEK = in_days("2026-11-16", "2026-11-22")
YESTERDAY = in_days("2026-11-26", "2026-11-26")
TODAY = in_days("2026-11-27", "2026-11-27")
MARCH_2025 = in_days("2025-03-01", "2025-03-31")

# (shape, intended files, filter-language form, {language: natural words})
INTENTS = [
    ("kind", expected(lambda f, m: f["kind"] == "pdf"), "kind:pdf",
     {"en": "pdfs", "de": "PDF-Dateien", "fr": "fichiers pdf", "es": "archivos pdf", "ja": "PDFファイル", "zh": "PDF文件"}),
    ("kind", expected(lambda f, m: f["kind"] == "audio"), "kind:audio",
     {"en": "songs", "de": "Lieder", "fr": "chansons", "es": "canciones", "ja": "音楽", "zh": "歌曲"}),
    ("kind", expected(lambda f, m: f["kind"] == "email"), "kind:email",
     {"en": "e-mails", "de": "E-Mails", "fr": "courriels", "es": "correos", "ja": "メール", "zh": "邮件"}),
    ("kind + relative date", expected(lambda f, m: f["kind"] == "pdf" and LAST_WEEK(m)),
     "kind:pdf modified:2026-11-16..2026-11-22",
     {"en": "pdfs from last week", "de": "PDFs der letzten Woche", "fr": "pdf de la semaine dernière",
      "es": "pdf de la semana pasada", "ja": "先週のPDF", "zh": "上周的PDF"}),
    ("kind + relative date", expected(lambda f, m: f["kind"] == "image" and YESTERDAY(m)),
     "kind:image modified:2026-11-26",
     {"en": "photos from yesterday", "de": "Fotos von gestern", "fr": "photos d'hier", "es": "fotos de ayer",
      "ja": "昨日の写真", "zh": "昨天的照片"}),
    ("kind + relative date", expected(lambda f, m: f["kind"] == "pdf" and TODAY(m)),
     "kind:pdf modified:today",
     {"en": "pdfs from today", "de": "PDFs von heute", "fr": "pdf d'aujourd'hui", "es": "pdf de hoy",
      "ja": "今日のPDF", "zh": "今天的PDF"}),
    ("month and year", expected(lambda f, m: f["kind"] == "pdf" and MARCH_2025(m)),
     "kind:pdf modified:2025-03",
     {"en": "pdfs from March 2025", "de": "PDFs vom März 2025", "fr": "pdf de mars 2025",
      "es": "pdf de marzo de 2025", "ja": "2025年3月のPDF", "zh": "2025年3月的PDF"}),
    ("before / since", expected(lambda f, m: f["kind"] == "video" and m < day("2026-01-01", 0)),
     "kind:video modified:<2026",
     {"en": "videos before 2026", "de": "Videos vor 2026", "fr": "vidéos avant 2026", "es": "vídeos antes de 2026",
      "ja": "2026年以前の動画", "zh": "2026年之前的视频"}),
    ("before / since", expected(lambda f, m: f["kind"] == "email" and m >= day("2026-11-23", 0)),
     "kind:email modified:>=2026-11-23",
     {"en": "emails since Monday", "de": "E-Mails seit Montag", "fr": "courriels depuis lundi",
      "es": "correos desde el lunes", "ja": "月曜日からのメール", "zh": "星期一以来的邮件"}),
    ("range", expected(lambda f, m: f["kind"] == "email" and in_days("2026-11-19", "2026-11-21")(m)),
     "kind:email modified:2026-11-19..2026-11-21",
     {"en": "emails from 19 to 21 November", "de": "E-Mails vom 19. bis 21. November",
      "fr": "courriels du 19 au 21 novembre", "es": "correos del 19 al 21 de noviembre"}),
    ("size word", expected(lambda f, m: f.get("big", False)), "kind:video size:>=1G sort:size",
     {"en": "big videos", "de": "große Videos", "fr": "grosses vidéos", "es": "vídeos grandes",
      "ja": "大きい動画", "zh": "大的视频"}),
    ("size comparison", expected(lambda f, m: f["kind"] == "image" and f.get("size", 0) > 10 * 1024 ** 2),
     "kind:image size:>10MB",
     {"en": "images over 10 MB", "de": "Bilder über 10 MB", "fr": "images de plus de 10 Mo",
      "es": "imágenes de más de 10 MB"}),
    ("date taken", expected(lambda f, m: f.get("taken") == "2026-05"), "kind:image taken:2026-05",
     {"en": "photos taken in May", "de": "Fotos aufgenommen im Mai", "fr": "photos prises en mai",
      "es": "fotos tomadas en mayo", "ja": "5月に撮った写真", "zh": "5月拍的照片"}),
    ("people: by", expected(lambda f, m: f["kind"] == "audio" and f.get("authors") == "miles davis"),
     'kind:audio author:"Miles Davis"',
     {"en": "songs by Miles Davis", "de": "Lieder von Miles Davis", "fr": "chansons par Miles Davis",
      "es": "canciones de Miles Davis"}),
    ("people: from", expected(lambda f, m: f["kind"] == "email" and f.get("authors") == "anna" and "budget" in f.get("words", ())),
     "kind:email from:anna budget",
     {"en": "emails from anna about the budget", "de": "E-Mails von Anna über das Budget",
      "fr": "courriels d'Anna sur le budget", "es": "correos de Anna sobre el budget"}),
    ("people: to", expected(lambda f, m: f["kind"] == "email" and f.get("to") == "anna"),
     "kind:email to:anna",
     {"en": "emails to anna", "de": "E-Mails an Anna", "fr": "courriels à Anna", "es": "correos para Anna"}),
    ("words that carry no meaning", expected(lambda f, m: "asyncio" in f.get("words", ())), "asyncio",
     {"en": "how to use asyncio", "de": "wie verwende ich asyncio", "fr": "comment utiliser asyncio",
      "es": "cómo usar asyncio", "ja": "asyncioの使い方", "zh": "如何使用asyncio"}),
]

# A name a reading would hide: the file named by the words comes first.
LITERALS = [("yesterday", "Notes/yesterday.txt"), ("last week notes", "Notes/last week notes.md"),
            ("photos", "Notes/photos.txt")]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def lay_out(home):
    for path, body, modified, _ in FILES:
        full = os.path.join(home, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            if isinstance(body, int):
                f.write(mp4())
                f.truncate(body)  # sparse: the size without the disk
            else:
                f.write(body)
        stamp = modified.timestamp()
        os.utime(full, (stamp, stamp))


def run(bin_dir, env, *args):
    return subprocess.run([os.path.join(bin_dir, "find-in-direct"), "--now", NOW, *args],
                          env=env, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("workdir", nargs="?")
    args = parser.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="limelight-natural-")
    shutil.rmtree(work, ignore_errors=True)
    home = os.path.join(work, "home")
    os.makedirs(home)
    env = dict(os.environ, HOME=home, TZ="UTC", LANG="C", LC_ALL="C",
               XDG_DATA_HOME=os.path.join(work, "data"), XDG_CONFIG_HOME=os.path.join(work, "config"),
               XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_RUNTIME_DIR=os.path.join(work, "run"))
    os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
    lay_out(home)
    subprocess.run([os.path.join(args.bin, "limelightd"), "--once", "--quiet"], env=env, check=True)

    def found(query):
        result = run(args.bin, env, query)
        paths = [os.path.relpath(line[len("file://"):], home) for line in result.stdout.splitlines()]
        return [p.replace("%20", " ") for p in paths], result.returncode

    scores = collections.defaultdict(lambda: [0, 0, 0])  # (shape, language) -> natural, filter, total
    misses = []
    for shape, intended, filters, phrasings in INTENTS:
        filter_paths, _ = found(filters)
        filter_exact = set(filter_paths) == intended
        if not filter_exact:
            misses.append(("filter", shape, filters, sorted(intended), sorted(filter_paths)))
        for language, words in phrasings.items():
            paths, status = found(words)
            exact = set(paths) == intended
            if shape == "size word":
                exact = exact and paths == sorted(paths, key=lambda p: -os.path.getsize(os.path.join(home, p)))
            if not exact:
                explained = run(args.bin, env, "--explain", words).stdout.strip()
                misses.append((language, shape, f"{words} → {explained}", sorted(intended), sorted(paths)))
            for key in ((shape, language), ("all shapes", language), (shape, "all"), ("all shapes", "all")):
                scores[key][0] += exact
                scores[key][1] += filter_exact
                scores[key][2] += 1

    languages = ["en", "de", "fr", "es", "ja", "zh", "all"]
    shapes = list(dict.fromkeys(s for s, *_ in INTENTS)) + ["all shapes"]
    print("\nQueries returning exactly the intended files: natural words / filter language "
          f"(now {NOW}, {len(FILES)} files)\n")
    print("| shape | " + " | ".join(languages) + " |")
    print("| --- |" + " --- |" * len(languages))
    for shape in shapes:
        cells = []
        for language in languages:
            natural, filtered, total = scores[(shape, language)]
            cells.append(f"{natural}/{total} · {filtered}/{total}" if total else "—")
        print(f"| {shape} | " + " | ".join(cells) + " |")

    literal_ok = 0
    for words, first in LITERALS:
        paths, _ = found(words)
        ok = paths[:1] == [first]
        literal_ok += ok
        if not ok:
            misses.append(("en", "literal name", words, [first], paths[:3]))
    print(f"\nA name a reading would hide comes first: {literal_ok}/{len(LITERALS)}")

    # The reader alone, in process: the first phrase of a process makes the
    # tables (the watcher's query service keeps them), the rest reuse them.
    cold, warm = [], []
    for _, _, _, p in INTENTS:
        for words in p.values():
            r = subprocess.run([os.path.join(args.bin, "find-in-direct"), "--now", NOW, "--explain", words],
                               env=dict(env, LIMELIGHT_TRACE_SQL="1"), capture_output=True, text=True)
            for line in r.stderr.splitlines():
                if line.startswith("[reading "):
                    parts = line[len("[reading "):].split(" ms, again ")
                    cold.append(float(parts[0]))
                    warm.append(float(parts[1].split(" ms]")[0]))
    warm.sort()
    cold.sort()
    print(f"\nReading a phrase, in process ({len(warm)} phrases): median {warm[len(warm) // 2]:.3f} ms, "
          f"slowest {warm[-1]:.3f} ms; the first of a process (its tables made) median "
          f"{cold[len(cold) // 2]:.1f} ms")

    # What reading and searching cost as a person meets them: find-in served
    # by the watcher's query service (process start included), the natural
    # words beside the same intents in the filter language, and --explain
    # (reading alone) beside --explain of plain words (reading nothing).
    watcher = subprocess.Popen([os.path.join(args.bin, "limelightd"), "--quiet"], env=env)
    try:
        wait_for_crawl(os.path.join(args.bin, "limelight"), env)
        find_in = os.path.join(args.bin, "find-in")

        slowest = []

        def served(arguments, rounds=5):
            times = []
            for _ in range(rounds):
                for words in arguments:
                    started = time.perf_counter()
                    subprocess.run([find_in, "--now", NOW, *words], env=env, capture_output=True)
                    times.append((time.perf_counter() - started) * 1000)
                    slowest.append((times[-1], " ".join(words)))
            times.sort()
            return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]

        phrases = [[words] for _, _, _, p in INTENTS for words in p.values()]
        filters = [[filters] for _, _, filters, p in INTENTS for _ in p]
        plain = [[w] for w in ["report", "beach", "asyncio", "budget", "minutes", "lease", "clip", "party"]]
        rows = [
            ("natural words, searched", served(phrases)),
            ("the same intents in the filter language", served(filters)),
            ("--explain of the natural words (reading, no search)", served([["--explain"] + p for p in phrases])),
            ("--explain of single plain words", served([["--explain"] + p for p in plain])),
        ]
        print("\nServed by the watcher, process start included (median / p99, ms):\n")
        print("| what | median | p99 |\n| --- | --- | --- |")
        for name, (median, p99) in rows:
            print(f"| {name} | {median:.1f} | {p99:.1f} |")
        print("\nSlowest: " + "; ".join(f"{q} {t:.0f} ms" for t, q in sorted(slowest, reverse=True)[:6]))
    finally:
        watcher.terminate()
        watcher.wait()

    if misses:
        print("\nMisses:")
        for language, shape, query, intended, got in misses:
            print(f"- [{language}] {shape}: {query}\n    intended {intended}\n    got      {got}")


if __name__ == "__main__":
    main()
