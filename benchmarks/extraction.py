#!/usr/bin/env python3
"""Extraction throughput per format family: Limelight against Recoll.

Builds one folder per format family from this system's own files (text and
source code, web pages, images) and from documents made of their text (PDF,
OpenDocument, Office Open XML, EPUB, e-mail, audio, archives, compressed
text, manual pages, subtitles, notebooks, RTF), and a family of valid but
odd files (audio under a second with no tags, from oggenc and opusenc, a
presentation with no slides, a workbook with no cells, an e-mail with no
body, a PDF with no text layer, empty text, an RTF of its \\info alone, empty
archives and compressions of nothing, a message whose only part is an
attachment, a TIFF scan as Pillow writes it, a presentation LibreOffice
saved as .ppt, a PDF locked by qpdf), then indexes
each folder with `limelightd --once` and with `recollindex` (with the helpers
Recoll needs for those formats installed) and prints files per second and
megabytes per second side by side, with how many files each reported it
could not read (per 1,000 files over all).
Then it runs the watcher over the image and PDF folders and reports how many
thumbnails a second it draws in the background.

Usage: benchmarks/extraction.py --bin BIN_DIR [--per-family N] [WORKDIR]
"""
import argparse
import glob
import io
import json
import os
import random
import shutil
import struct
import subprocess
import tarfile
import tempfile
import time
import wave
import zipfile
import zlib


def log(*args):
    print(*args, file=__import__("sys").stderr, flush=True)


def source_texts(limit):
    """Paragraphs of real prose and code from the system's documentation."""
    texts = []
    for pattern in ("/usr/share/doc/*/README*", "/usr/share/doc/*/*.txt", "/usr/share/common-licenses/*",
                    "/usr/include/*.h"):
        for path in sorted(glob.glob(pattern)):
            try:
                with open(path, "rb") as f:
                    data = f.read(200_000)
            except OSError:
                continue
            if path.endswith(".gz") or b"\0" in data[:4096]:
                continue
            texts.append(data.decode("utf-8", "replace"))
            if len(texts) >= limit:
                return texts
    return texts or ["Limelight benchmark text " * 200]


def pdf(text, pages=4):
    """A text PDF: `pages` pages of Helvetica lines, with an information dictionary."""
    lines = [l[:90].replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
             for l in text.splitlines() if l.strip()] or ["empty"]
    per = max(1, len(lines) // pages)
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None,
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for p in range(pages):
        chunk = lines[p * per:(p + 1) * per][:50] or ["."]
        stream = "BT /F1 10 Tf 50 780 Td 12 TL\n" + "".join(f"({l}) '\n" for l in chunk) + "ET"
        objects.append(f"<< /Length {len(stream.encode('latin-1', 'replace'))} >>\nstream\n{stream}\nendstream")
        content = len(objects)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {content} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>"
    objects.append("<< /Title (Benchmark document) /Author (Limelight) >>")
    info = len(objects)
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1", "replace"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for o in offsets:
        out.write(f"{o:010d} 00000 n \n".encode())
    out.write(f"trailer << /Size {len(objects) + 1} /Root 1 0 R /Info {info} 0 R >>\n"
              f"startxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def odt(text):
    body = "".join(f"<text:p>{escape(l)}</text:p>" for l in text.splitlines()[:400])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        z.writestr("content.xml", '<?xml version="1.0"?><office:document-content '
                   'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
                   f"<office:body><office:text>{body}</office:text></office:body></office:document-content>")
        z.writestr("meta.xml", '<?xml version="1.0"?><office:document-meta '
                   'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta>'
                   "<dc:title>Benchmark document</dc:title></office:meta></office:document-meta>")
        z.writestr("META-INF/manifest.xml", '<?xml version="1.0"?><manifest:manifest '
                   'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                   '<manifest:file-entry manifest:full-path="/" '
                   'manifest:media-type="application/vnd.oasis.opendocument.text"/>'
                   '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                   "</manifest:manifest>")
    return out.getvalue()


def docx(text):
    body = "".join(f"<w:p><w:r><w:t>{escape(l)}</w:t></w:r></w:p>" for l in text.splitlines()[:400])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types '
                   'xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
                   'officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships '
                   'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                   'relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", '<?xml version="1.0"?><w:document '
                   'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                   f"<w:body>{body}</w:body></w:document>")
    return out.getvalue()


def epub(text):
    body = "".join(f"<p>{escape(l)}</p>" for l in text.splitlines()[:400])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" '
                   'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                   '<rootfile full-path="book.opf" media-type="application/oebps-package+xml"/>'
                   "</rootfiles></container>")
        z.writestr("book.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" '
                   'version="2.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
                   "<dc:title>Benchmark book</dc:title></metadata><manifest>"
                   '<item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>'
                   '<spine><itemref idref="c"/></spine></package>')
        z.writestr("c.xhtml", f'<html xmlns="http://www.w3.org/1999/xhtml"><body>{body}</body></html>')
    return out.getvalue()


def eml(text, n):
    return (f"From: Author {n} <author{n}@example.com>\nTo: reader@example.com\n"
            f"Subject: Benchmark message {n}\nDate: Mon, 2 Nov 2026 10:00:00 +0000\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n{text[:20_000]}\n").encode()


def wav(n):
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"".join(struct.pack("<h", int(1000 * ((i * (n + 3)) % 40 - 20))) for i in range(8000 * 3)))
    data = bytearray(out.getvalue())
    # An ID3v2 chunk with a title, as tagging programs add to WAV files.
    title = f"Track albatross{n:04d}".encode()
    frame = b"TIT2" + struct.pack(">I", len(title) + 1) + b"\0\0" + b"\3" + title
    tag = b"ID3\4\0\0" + bytes([(len(frame) >> 21) & 0x7F, (len(frame) >> 14) & 0x7F,
                                (len(frame) >> 7) & 0x7F, len(frame) & 0x7F]) + frame
    chunk = b"id3 " + struct.pack("<I", len(tag)) + tag + (b"\0" if len(tag) % 2 else b"")
    data += chunk
    struct.pack_into("<I", data, 4, len(data) - 8)
    return bytes(data)


def tar_gz(members):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        for name, body in members:
            info = tarfile.TarInfo(name)
            info.size = len(body)
            t.addfile(info, io.BytesIO(body))
    return out.getvalue()


def man_page(text, n):
    """A manual page in roff, its text in fonts and escapes as pages are."""
    lines = [l.replace("\\", "\\e").replace("-", "\\-") for l in text.splitlines() if l.strip()][:200]
    body = "\n".join(("\\fB" + l + "\\fR") if k % 7 == 0 else ("\\&" + l if l.startswith((".", "'")) else l)
                     for k, l in enumerate(lines))
    return (f'.TH TOOL{n} 1 "2024" "Tools" "User Commands"\n.SH NAME\ntool{n} \\- a tool\n'
            f".SH DESCRIPTION\n{body}\n")


def srt(text):
    lines = [l for l in text.splitlines() if l.strip()][:200]
    return "".join(f"{k + 1}\n00:00:{k % 60:02d},000 --> 00:00:{k % 60:02d},900\n{l}\n\n"
                   for k, l in enumerate(lines))


def notebook(text):
    lines = [l for l in text.splitlines() if l.strip()][:200]
    cells = [{"cell_type": "markdown" if k % 2 else "code", "metadata": {}, "source": [l + "\n"],
              **({} if k % 2 else {"outputs": [], "execution_count": None})}
             for k, l in enumerate(lines)]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def rtf(text):
    def escape(line):
        out = line.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")
        return "".join(c if ord(c) < 128 else f"\\u{ord(c) if ord(c) < 32768 else ord(c) - 65536}?"
                       for c in out)
    body = "\\par\n".join(escape(l) for l in text.splitlines()[:400])
    return "{\\rtf1\\ansi{\\fonttbl{\\f0 Times New Roman;}}\\f0\\fs24 " + body + "}"


def office_package(main, body, title):
    """An Office Open XML package with its main part and nothing else: a
    presentation with no slides, a workbook with no cells."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.'
                   'openxmlformats.org/package/2006/content-types"/>')
        z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.'
                   'openxmlformats.org/package/2006/relationships"/>')
        z.writestr("docProps/core.xml", '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://'
                   'schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http:'
                   f'//purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title></cp:coreProperties>')
        z.writestr(main, body)
    return out.getvalue()


def short_clip(seconds, rate=44100):
    """A tone of under a second, as a WAV with no tags."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        frames = int(seconds * rate)
        w.writeframes(b"".join(struct.pack("<h", int(8000 * ((i // 50) % 2 * 2 - 1)))
                               for i in range(frames)))
    return out.getvalue()


def encoded(tool, arguments, data, suffix):
    """`data` through an encoder (oggenc, opusenc, qpdf); None when it is missing."""
    if shutil.which(tool) is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        source, target = os.path.join(folder, "in"), os.path.join(folder, "out" + suffix)
        with open(source, "wb") as f:
            f.write(data)
        made = subprocess.run([tool, *arguments(source, target)], capture_output=True)
        if made.returncode != 0 or not os.path.exists(target):
            return None
        with open(target, "rb") as f:
            return f.read()


def odd_files(i, text):
    """Valid files that hold little: short tagless audio, a presentation with
    no slides, a workbook with no cells, an e-mail with no body, a PDF with no
    text layer, empty text, an RTF of nothing but its information group, an
    empty archive, and a PDF that needs a password (locked, not an error)."""
    seconds = 0.1 + (i % 9) / 10
    clip = short_clip(seconds)
    files = {
        f"{i}-clip.wav": clip,
        f"{i}-silence.wav": short_clip(0),
        f"{i}-no-slides.pptx": office_package(
            "ppt/presentation.xml", '<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.'
            'openxmlformats.org/presentationml/2006/main"><p:sldSz cx="9144000" cy="6858000"/>'
            '</p:presentation>', f"Deck {i}"),
        f"{i}-no-cells.xlsx": office_package(
            "xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats'
            '.org/spreadsheetml/2006/main"><sheets/></workbook>', f"Ledger {i}"),
        f"{i}-no-body.eml": (f"From: Ann <ann{i}@example.org>\r\nTo: bo@example.org\r\n"
                             f"Subject: note {i}\r\nDate: Mon, 2 Mar 2026 10:00:00 +0000\r\n\r\n").encode(),
        f"{i}-no-text.pdf": pdf_without_text(i),
        f"{i}-empty.txt": b"",
        f"{i}-blank.md": b"\n\n",
        f"{i}-info-only.rtf": ("{\\rtf1\\ansi{\\info{\\title Minutes " + str(i) +
                                "}{\\author Ann}}}").encode(),
        f"{i}-empty.tar.gz": tar_gz([]),
        f"{i}-empty.zip": zip_empty(),
        f"{i}-nothing.log.gz": __import__("gzip").compress(b""),
        f"{i}-nothing.log.bz2": __import__("bz2").compress(b""),
        f"{i}-nothing.log.xz": __import__("lzma").compress(b""),
        f"{i}-attached.eml": attachment_only(i),
    }
    scan = tiff(i)
    if scan is not None:
        files[f"{i}-scan.tif"] = scan
    for name, data in libre_office_files().items():
        files[f"{i}-{name}"] = data
    vorbis = encoded("oggenc", lambda a, b: ["-Q", "-o", b, a], clip, ".ogg")
    opus = encoded("opusenc", lambda a, b: ["--quiet", a, b], clip, ".opus")
    locked = encoded("qpdf", lambda a, b: ["--encrypt", f"user{i}", "owner", "256", "--", a, b],
                     pdf(text, pages=1), ".pdf")
    for name, data in ((f"{i}-clip.ogg", vorbis), (f"{i}-clip.opus", opus), (f"{i}-locked.pdf", locked)):
        if data is not None:
            files[name] = data
    return files


def attachment_only(i):
    """A message whose only part is an attachment, as Python's email writes it."""
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"] = f"Ann <ann{i}@example.org>"
    message["Subject"] = f"scan {i}"
    message.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf",
                           filename=f"invoice-{i}.pdf")
    return bytes(message)


def tiff(i):
    """A grey scan as Pillow writes it (its directory after the pixels); None without Pillow."""
    try:
        from PIL import Image
    except ImportError:
        return None
    out = io.BytesIO()
    Image.new("L", (300 + i % 50, 200)).save(out, format="TIFF", compression="tiff_lzw")
    return out.getvalue()


_libre_office = None


def libre_office_files():
    """A presentation and a letter as LibreOffice saves them in Office's old
    formats (made once; none when LibreOffice is missing)."""
    global _libre_office
    if _libre_office is not None:
        return _libre_office
    _libre_office = {}
    if shutil.which("soffice") is None:
        return _libre_office
    with tempfile.TemporaryDirectory() as folder:
        def flat(name, kind, body):
            """A flat OpenDocument file, which LibreOffice opens as its own."""
            path = os.path.join(folder, name)
            with open(path, "w") as f:
                f.write('<?xml version="1.0" encoding="UTF-8"?><office:document '
                        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
                        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
                        f'office:version="1.3" office:mimetype="application/vnd.oasis.'
                        f'opendocument.{kind}"><office:body>{body}</office:body>'
                        '</office:document>')
            return path
        talk = flat("talk.fodp", "presentation",
                    '<office:presentation><draw:page draw:name="p"><draw:frame><draw:text-box>'
                    '<text:p>Avocets sweep the shallows</text:p></draw:text-box></draw:frame>'
                    '</draw:page></office:presentation>')
        letter = flat("letter.fodt", "text",
                      '<office:text><text:p>The stilts wade at the heronry</text:p></office:text>')
        profile = "-env:UserInstallation=file://" + os.path.join(folder, "profile")
        for source, target in ((talk, "ppt"), (letter, "doc")):
            subprocess.run(["soffice", profile, "--headless", "--convert-to", target,
                            "--outdir", folder, source], capture_output=True)
            made = os.path.splitext(source)[0] + "." + target
            if os.path.exists(made):
                with open(made, "rb") as f:
                    _libre_office["libreoffice." + target] = f.read()
    return _libre_office


def pdf_without_text(i):
    """A scanned-looking page: a drawing and no text layer."""
    stream = f"0.{i % 9} g 50 50 {200 + i % 300} 300 re f"
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
               f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream"]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{n} 0 obj\n{body}\nendobj\n".encode())
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def zip_empty():
    out = io.BytesIO()
    zipfile.ZipFile(out, "w").close()
    return out.getvalue()


def probe_word(text):
    """A word of the text that few others hold: its longest plain word."""
    words = [w for w in __import__("re").findall(r"[A-Za-z]{6,24}", text[:3000])]
    return max(words, key=len) if words else None


def build(root, per):
    """Fills one folder per family; returns, per family, (file name, word
    inside it) pairs that a content index must find."""
    probes = {}
    def probe(family, name, text):
        word = probe_word(text)
        if word and len(probes.setdefault(family, [])) < 10:
            probes[family].append((name, word))
    rng = random.Random(7)
    texts = source_texts(max(per, 50))
    def text(i):
        return texts[i % len(texts)]
    def put(family, name, data):
        path = os.path.join(root, family, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
    real = sorted(glob.glob("/usr/include/**/*.h", recursive=True)) + sorted(glob.glob("/usr/share/doc/*/*.txt"))
    rng.shuffle(real)
    for i, path in enumerate(real[:per]):
        with open(path, "rb") as f:
            data = f.read()
        put("text", f"{i}-{os.path.basename(path)}", data)
        probe("text", f"{i}-{os.path.basename(path)}", data.decode("utf-8", "replace"))
    html = sorted(p for p in glob.glob("/usr/share/doc/**/*.html", recursive=True) if os.path.isfile(p))
    for i in range(per):
        if html:
            with open(html[i % len(html)], "rb") as f:
                data = f.read()
            put("html", f"{i}.html", data)
            body = data.decode("utf-8", "replace")
            body = body[body.lower().find("<body"):] if "<body" in body.lower() else body
            probe("html", f"{i}.html", __import__("re").sub(r"<[^>]*>|&\w+;", " ", body))
    icons = sorted(p for p in glob.glob("/usr/share/icons/**/*.png", recursive=True) if os.path.getsize(p) > 2000)
    rng.shuffle(icons)
    for i, path in enumerate(icons[:per]):
        with open(path, "rb") as f:
            put("images", f"{i}-{os.path.basename(path)}", f.read())
    for i in range(per):
        put("pdf", f"{i}.pdf", pdf(text(i)))
        kind = ("odt", "docx", "epub")[i % 3]
        put("office", f"{i}.{kind}", {"odt": odt, "docx": docx, "epub": epub}[kind](text(i)))
        put("email", f"{i}.eml", eml(text(i), i))
        put("audio", f"{i}.wav", wav(i))
        members = [(f"doc/cormorant{i:04d}-{j}.txt", text(i + j).encode()[:30_000]) for j in range(5)]
        put("archives", f"{i}.tar.gz", tar_gz(members))
        # Text in the forms people keep it: compressed, as a manual page,
        # subtitles, a notebook, RTF.
        put("compressed", f"{i}-notes.txt.gz", __import__("gzip").compress(text(i).encode()))
        put("man", f"tool{i}.1", man_page(text(i), i))
        put("subtitles", f"{i}.srt", srt(text(i)))
        put("notebooks", f"{i}.ipynb", notebook(text(i)))
        put("rtf", f"{i}.rtf", rtf(text(i)))
        if i < max(1, per // 10):
            for name, data in odd_files(i, text(i)).items():
                put("odd", name, data)
        shown = "\n".join([l for l in text(i).splitlines() if l.strip()][:200])
        probe("compressed", f"{i}-notes.txt.gz", text(i))
        probe("man", f"tool{i}.1", shown)
        probe("subtitles", f"{i}.srt", shown)
        probe("notebooks", f"{i}.ipynb", shown)
        probe("rtf", f"{i}.rtf", "\n".join(text(i).splitlines()[:400]))
        first_line = next((l for l in text(i).splitlines() if l.strip()), "")
        probe("pdf", f"{i}.pdf", first_line[:90])
        probe("office", f"{i}.{kind}", text(i))
        probe("email", f"{i}.eml", text(i))
        # An archive's item holds its members' names, a recording its tags.
        if i < 10:
            probes.setdefault("archives", []).append((f"{i}.tar.gz", f"cormorant{i:04d}"))
            probes.setdefault("audio", []).append((f"{i}.wav", f"albatross{i:04d}"))
    # Workbooks of before 2007, as xlwt (pandas' writer of .xls) makes them:
    # a line a cell. Debian's Python has Debian's xlwt.
    books = [(os.path.join(root, "xls", f"{i}.xls"),
              [l[:2000] for l in text(i).splitlines() if l.strip()][:300]) for i in range(per)]
    os.makedirs(os.path.join(root, "xls"), exist_ok=True)
    made = subprocess.run(["/usr/bin/python3", "-c", XLS_WRITER], input=json.dumps(books),
                          text=True, capture_output=True)
    if made.returncode == 0:
        for path, lines in books:
            probe("xls", os.path.basename(path), "\n".join(lines))
    else:
        log("no .xls family: " + (made.stderr.strip().splitlines() or ["xlwt missing"])[-1])
        shutil.rmtree(os.path.join(root, "xls"), ignore_errors=True)
    with open(os.path.join(root, "..", "probes.json"), "w") as f:
        json.dump(probes, f)


XLS_WRITER = """
import json, sys, xlwt
for path, lines in json.load(sys.stdin):
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Lines")
    for row, line in enumerate(lines):
        sheet.write(row, 0, line)
    book.save(path)
"""


def found(names_and_words, search):
    """How many probes a search finds: the file holding the word among its results."""
    hits = 0
    for name, word in names_and_words:
        if any(line.rstrip("/").endswith("/" + name) for line in search(word)):
            hits += 1
    return hits


def limelight_search(binary, env):
    def search(word):
        out = subprocess.run([f"{binary}/find-in", "--limit", "1000", word], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        return [__import__("urllib.parse").parse.unquote(l) for l in out.decode().splitlines()]
    return search


def recoll_search(state):
    def search(word):
        out = subprocess.run(["recollq", "-c", state, "-b", "-n", "1000", word],
                             env=dict(os.environ, HOME=state), stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout
        return [__import__("urllib.parse").parse.unquote(l) for l in out.decode().splitlines()]
    return search


def dir_stats(path):
    count = size = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            count += 1
            size += os.path.getsize(os.path.join(dirpath, f))
    return count, size


def run_limelight(binary, folder, state):
    shutil.rmtree(state, ignore_errors=True)
    env = dict(os.environ, HOME=folder, XDG_DATA_HOME=f"{state}/data", XDG_CONFIG_HOME=f"{state}/config",
               XDG_CACHE_HOME=f"{state}/cache", XDG_RUNTIME_DIR=f"{state}/run",
               XDG_CONFIG_DIRS=f"{state}/none")
    os.makedirs(f"{state}/config/limelight", exist_ok=True)
    with open(f"{state}/config/limelight/limelight.conf", "w") as f:
        f.write("applications = no\nmax-text-size = 1M\n")
    start = time.perf_counter()
    subprocess.run([f"{binary}/limelightd", "--once", "--quiet", "--root", folder], env=env, check=True)
    seconds = time.perf_counter() - start
    status = json.loads(subprocess.run([f"{binary}/limelight", "status", "--json"], env=env,
                                       stdout=subprocess.PIPE, check=True).stdout)
    return seconds, status["failures"], env


def run_recoll(folder, state):
    shutil.rmtree(state, ignore_errors=True)
    os.makedirs(state)
    with open(f"{state}/recoll.conf", "w") as f:
        f.write(f"topdirs = {folder}\nloglevel = 2\nlogfilename = {state}/log\nnoaspell = 1\n"
                "indexallfilenames = 1\n")
    start = time.perf_counter()
    subprocess.run(["recollindex", "-c", state], env=dict(os.environ, HOME=state),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    return seconds, recoll_failures(f"{state}/log", folder)


def recoll_failures(log_path, folder):
    """Files Recoll's log names in an error line (level 1 or 2)."""
    failed = set()
    try:
        with open(log_path, errors="replace") as f:
            for line in f:
                if line.startswith((":1:", ":2:")):
                    for match in __import__("re").finditer(r"\[?(/[^\]\s:]+)", line):
                        if match.group(1).startswith(folder + "/"):
                            failed.add(match.group(1))
    except OSError:
        pass
    return len(failed)


def thumbnail_rate(binary, folders, state):
    """Starts the watcher over the folders and times the background thumbnails."""
    wanted = sum(dir_stats(f)[0] for f in folders)
    env = dict(os.environ, HOME=folders[0], XDG_DATA_HOME=f"{state}/t/data", XDG_CONFIG_HOME=f"{state}/t/config",
               XDG_CACHE_HOME=f"{state}/t/cache", XDG_RUNTIME_DIR=f"{state}/t/run",
               XDG_CONFIG_DIRS=f"{state}/t/none")
    shutil.rmtree(f"{state}/t", ignore_errors=True)
    os.makedirs(f"{state}/t/config/limelight")
    with open(f"{state}/t/config/limelight/limelight.conf", "w") as f:
        f.write("applications = no\n" + "".join(f"root = {d}\n" for d in folders))
    start = time.perf_counter()
    watcher = subprocess.Popen([f"{binary}/limelightd", "--quiet"], env=env)
    large = f"{state}/t/cache/thumbnails/large"
    made = 0
    last_change = time.perf_counter()
    try:
        while time.perf_counter() - last_change < 15 and made < wanted:
            time.sleep(0.5)
            now = len(glob.glob(f"{large}/*.png"))
            if now != made:
                made, last_change = now, time.perf_counter()
    finally:
        watcher.terminate()
        watcher.wait()
    seconds = last_change - start
    return made, wanted, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workdir", nargs="?")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--per-family", type=int, default=300)
    args = parser.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="limelight-extraction-")
    corpus = os.path.join(work, "corpus")
    if not os.path.isdir(corpus) or not os.path.exists(os.path.join(work, "probes.json")):
        shutil.rmtree(corpus, ignore_errors=True)
        log(f"building {args.per_family} files per family in {corpus} …")
        build(corpus, args.per_family)
    with open(os.path.join(work, "probes.json")) as f:
        probes = json.load(f)
    have_recoll = shutil.which("recollindex") is not None
    rows = []
    for family in sorted(os.listdir(corpus)):
        folder = os.path.join(corpus, family)
        count, size = dir_stats(folder)
        log(f"{family}: limelightd --once …")
        ll, failures, env = run_limelight(args.bin, folder, os.path.join(work, "state", "ll-" + family))
        family_probes = probes.get(family, [])
        ll_found = found(family_probes, limelight_search(args.bin, env))
        rc = rc_found = rc_failures = None
        if have_recoll:
            log(f"{family}: recollindex …")
            rc_state = os.path.join(work, "state", "rc-" + family)
            rc, rc_failures = run_recoll(folder, rc_state)
            rc_found = found(family_probes, recoll_search(rc_state))
        rows.append((family, count, size, ll, failures, rc, len(family_probes), ll_found, rc_found,
                     rc_failures))
    print("\n## Extraction throughput per format family (one run, same files)\n")
    print("| family | files | MB | limelight s | files/s | MB/s | errors | words found | "
          "recollindex s | files/s | errors | words found | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total = [0, 0, 0.0, 0.0]
    errors = [0, 0]
    for family, count, size, ll, failures, rc, probed, ll_found, rc_found, rc_failures in rows:
        errors[0] += failures
        errors[1] += rc_failures or 0
        total[0] += count
        total[1] += size
        total[2] += ll
        total[3] += rc or 0
        words = lambda hits: f"{hits}/{probed}" if probed and hits is not None else "–"
        rc_cells = (f"{rc:.2f} | {count / rc:.0f} | {rc_failures} | {words(rc_found)} | {rc / ll:.1f}x"
                    if rc else "– | – | – | – | –")
        print(f"| {family} | {count} | {size / 1e6:.1f} | {ll:.2f} | {count / ll:.0f} | "
              f"{size / 1e6 / ll:.1f} | {failures} | {words(ll_found)} | {rc_cells} |")
    if total[2]:
        per_mille = lambda n: f"{n} ({1000 * n / max(total[0], 1):.1f}/1,000)"
        rc_total = (f"{total[3]:.2f} | {total[0] / total[3]:.0f} | {per_mille(errors[1])} | |"
                    f" {total[3] / total[2]:.1f}x" if total[3] else "– | – | – | | –")
        print(f"| all | {total[0]} | {total[1] / 1e6:.1f} | {total[2]:.2f} | {total[0] / total[2]:.0f} | "
              f"{total[1] / 1e6 / total[2]:.1f} | {per_mille(errors[0])} | | {rc_total} |")
    print("\nratio: recollindex's time over limelightd's (above 1: Limelight is faster).")
    print("errors: files each reported it could not read (Limelight: `limelight status`'s errors,"
          " locked documents apart; Recoll: files its log names in an error line). The odd"
          " family holds only valid files: every error there is a false one.")
    print("words found: of up to 10 files, how many a search for a word inside them finds "
          "(text that only a reader of the format sees); – where a family has no text to probe.")
    folders = [os.path.join(corpus, f) for f in ("images", "pdf") if os.path.isdir(os.path.join(corpus, f))]
    if folders:
        log("thumbnails in the background …")
        made, wanted, seconds = thumbnail_rate(args.bin, folders, os.path.join(work, "state"))
        print(f"\nThumbnails drawn by the watcher in the background (images and PDF first pages): "
              f"{made} of {wanted} in {seconds:.1f} s, {made / max(seconds, 0.001):.1f}/s")


if __name__ == "__main__":
    main()
