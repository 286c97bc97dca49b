#!/usr/bin/env python3
"""Fidelity of pdfpipe's thumbnails and text beside each engine's own tool and PDFium (#34, 7).

    python3 bench/fidelity.py REPORT.json OUT_DIR ROOT [poppler|mupdf]

REPORT.json is a pdfpipe run of thumbnails (page 1, 200 px wide) and extract-text (txt) over the
documents under ROOT, written to OUT_DIR. For each document: the thumbnail's size and mean absolute
pixel difference (0-255, over the RGB channels) against `pdftocairo -cropbox -scale-to-x 200 -scale-to-y -1` and
PDFium (pypdfium2, crop box, the same width); the text's word-multiset similarity (shared words over
the larger count) against `pdftotext` and PDFium. Prints the distributions and every document whose
text similarity to pdftotext is below 0.95; the pages pdfpipe read as empty where the tool read
text, and the tool's right-to-left words pdfpipe has (#63). Run by bench/fidelity.sh (which makes
the report).
With `mupdf` (the MuPDF engine's run), the engine's own tool is `mutool draw` (`-w 200` of the
page's bounds, which are its crop box; `-F txt` for the text) instead of poppler's.
"""
import collections, json, os, re, subprocess, sys, tempfile, unicodedata

import pypdfium2 as pdfium

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtl_words import RTL, letter_words  # noqa: E402
from PIL import Image, ImageChops, ImageStat



def words(text):
    return collections.Counter(text.split())


def similarity(a, b):
    na, nb = sum(a.values()), sum(b.values())
    if na == 0 and nb == 0:
        return 1.0
    return sum((a & b).values()) / max(na, nb)


def mad(a, b):
    """Mean absolute difference over RGB, on the common area (sizes may differ by a pixel)."""
    a, b = a.convert("RGB"), b.convert("RGB")
    w, h = min(a.width, b.width), min(a.height, b.height)
    if w == 0 or h == 0:
        return None
    d = ImageChops.difference(a.crop((0, 0, w, h)), b.crop((0, 0, w, h)))
    return sum(ImageStat.Stat(d).mean) / 3


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] if v else float("nan")


def main():
    report, out, root = sys.argv[1], sys.argv[2], sys.argv[3]
    engine = sys.argv[4] if len(sys.argv) > 4 else "poppler"
    tool = "mutool" if engine == "mupdf" else "pdftotext"
    docs = json.load(open(report))["documents"]
    tmp = tempfile.mkdtemp()
    rows = []
    for d in docs:
        path = os.path.join(root, d["path"])
        arts = {a["kind"]: a["path"] for a in d.get("artifacts", [])}
        row = {"path": d["path"], "status": d["status"]}
        thumb = arts.get("thumbnail")
        text = arts.get("text")
        try:
            pdf = pdfium.PdfDocument(path)
            page = pdf[0]
            l, b, r, t = page.get_cropbox()
            width = abs(r - l) if page.get_rotation() % 180 == 0 else abs(t - b)
            pimg = page.render(scale=200 / width, crop=(0, 0, 0, 0)).to_pil() if width > 0 else None
            ptext = "".join(pdf[i].get_textpage().get_text_range() + "\n" for i in range(len(pdf)))
        except Exception as e:  # PDFium cannot open it (encrypted, damaged): no opinion
            pimg, ptext, row["pdfium"] = None, None, str(e)[:60]
        if engine == "mupdf":
            subprocess.run(["mutool", "draw", "-q", "-w", "200", "-o", tmp + "/c.png", path, "1"], capture_output=True)
            ctext = subprocess.run(["mutool", "draw", "-q", "-F", "txt", path], capture_output=True).stdout
        else:
            subprocess.run(["pdftocairo", "-png", "-f", "1", "-l", "1", "-cropbox", "-scale-to-x", "200", "-scale-to-y",
                            "-1", "-singlefile", path, tmp + "/c"], capture_output=True)
            ctext = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True).stdout
        # A control character is a glyph the tool could not map: U+FFFD, as pdfpipe writes it; the
        # bidi embedding marks pdftotext puts around right-to-left runs are formatting, not text
        # (pdfpipe leaves them out).
        bidi = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
        ctext = "".join(c if c >= " " or c in "\t\n\v\f\r" else "\ufffd"
                        for c in ctext.decode("utf-8", "replace") if c not in bidi)
        cimg = None
        if os.path.exists(tmp + "/c.png"):
            try:  # a tool that failed half-way leaves a file that is no image: no opinion
                cimg = Image.open(tmp + "/c.png")
                cimg.load()
            except Exception:
                cimg = None
            os.remove(tmp + "/c.png")
        if thumb:
            img = Image.open(os.path.join(out, thumb))
            row["size"] = img.size
            if cimg:
                row["sizeTool"] = cimg.size
                row["madTool"] = mad(img, cimg)
            if pimg:
                row["sizePdfium"] = pimg.size
                row["madPdfium"] = mad(img, pimg)
        if text:
            raw = open(os.path.join(out, text), encoding="utf-8", errors="replace").read()
            mine = words(raw)
            row["words"] = sum(mine.values())
            # (#63) Pages pdfpipe read as empty where the tool read text (both write a form feed
            # between pages), and the tool's right-to-left words (Hebrew, Arabic) pdfpipe has.
            ours_pages, their_pages = raw.split("\f"), ctext.split("\f")
            row["emptyPages"] = [i + 1 for i in range(min(len(ours_pages), len(their_pages)))
                                 if not ours_pages[i].strip() and their_pages[i].strip()]
            theirs_rtl = collections.Counter(w for w in ctext.split() if RTL.search(w))
            if theirs_rtl:
                row["rtlWords"] = sum(theirs_rtl.values())
                row["rtlFound"] = sum((theirs_rtl & mine).values())
                theirs_letters = collections.Counter({w: n for w, n in letter_words(ctext).items() if RTL.search(w)})
                row["rtlLetterWords"] = sum(theirs_letters.values())
                row["rtlLetterFound"] = sum((theirs_letters & letter_words(raw)).values())
                # Vowelled text (Arabic vowel signs on more than 5 % of the letters): where pdftotext
                # cuts words at their marks, so its words are no reference.
                rtl_letters = sum(1 for ch in ctext if RTL.match(ch) and unicodedata.category(ch)[0] == "L")
                marks = sum(1 for ch in ctext if "\u064b" <= ch <= "\u065f" or ch == "\u0670")
                row["vowelled"] = marks > 0.05 * max(1, rtl_letters)
            row["textTool"] = similarity(mine, words(ctext))
            if ptext is not None:
                row["textPdfium"] = similarity(mine, words(ptext))
        rows.append(row)

    def dist(key):
        v = [r[key] for r in rows if r.get(key) is not None]
        return "n=%d p50=%.3f p10=%.3f p1=%.3f min=%.3f" % (
            len(v), pct(v, 50), pct(v, 10), pct(v, 1), min(v)) if v else "n=0"

    def dist_up(key):
        v = [r[key] for r in rows if r.get(key) is not None]
        return "n=%d mean=%.2f p50=%.2f p90=%.2f p99=%.2f max=%.2f" % (
            len(v), sum(v) / len(v), pct(v, 50), pct(v, 90), pct(v, 99), max(v)) if v else "n=0"

    sized = [r for r in rows if "sizeTool" in r]
    print("documents: %d (%d with a thumbnail, %d with text)" % (
        len(rows), sum("size" in r for r in rows), sum("words" in r for r in rows)))
    near = lambda a, b: abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1
    cairo = "mutool draw" if engine == "mupdf" else "pdftocairo"
    print("engine: %s; its own tools: %s, %s" % (engine, cairo, tool))
    print("thumbnail size within 1 px of the tool's: %d of %d; of PDFium's: %d of %d" % (
        sum(near(r["size"], r["sizeTool"]) for r in sized), len(sized),
        sum(near(r["size"], r["sizePdfium"]) for r in rows if "sizePdfium" in r), sum("sizePdfium" in r for r in rows)))
    print("thumbnail size = the tool's: %d of %d; = PDFium's: %d of %d" % (
        sum(r["size"] == r["sizeTool"] for r in sized), len(sized),
        sum(r["size"] == r["sizePdfium"] for r in rows if "sizePdfium" in r), sum("sizePdfium" in r for r in rows)))
    print("thumbnail MAD vs %s (0-255):" % cairo, dist_up("madTool"))
    print("thumbnail MAD vs PDFium (0-255):   ", dist_up("madPdfium"))
    print("text similarity vs %s:" % tool, dist("textTool"))
    print("text similarity vs PDFium:   ", dist("textPdfium"))
    empty = [(r["path"], p) for r in rows for p in r.get("emptyPages", [])]
    print("pages with no text where %s has some (target 0): %d" % (tool, len(empty)))
    for path, page in empty[:20]:
        print("  %s page %d" % (path, page))
    rtl_words = sum(r.get("rtlWords", 0) for r in rows)
    if rtl_words:
        print("right-to-left word recall against %s (target >= 0.95): %.3f of %d words in %d documents" % (
            tool, sum(r.get("rtlFound", 0) for r in rows) / rtl_words, rtl_words, sum("rtlWords" in r for r in rows)))
        letters = sum(r.get("rtlLetterWords", 0) for r in rows)
        print("  the same over words of letters (punctuation aside, cut where the direction changes): %.3f of %d" % (
            sum(r.get("rtlLetterFound", 0) for r in rows) / max(1, letters), letters))
        plain = [r for r in rows if r.get("rtlLetterWords") and not r.get("vowelled")]
        print("  the same on the %d documents without vowel signs: %.3f of %d" % (
            len(plain), sum(r["rtlLetterFound"] for r in plain) / max(1, sum(r["rtlLetterWords"] for r in plain)),
            sum(r["rtlLetterWords"] for r in plain)))
        low_rtl = sorted((r for r in rows if r.get("rtlLetterWords")), key=lambda r: r["rtlLetterFound"] / r["rtlLetterWords"])
        for r in low_rtl[:10]:
            print("    %.3f of %d %s" % (r["rtlLetterFound"] / r["rtlLetterWords"], r["rtlLetterWords"], r["path"]))
    low = sorted((r for r in rows if r.get("textTool", 1) < 0.95), key=lambda r: r["textTool"])
    print("\n%d documents below 0.95 against %s:" % (len(low), tool))
    for r in low:
        print("  %.3f (PDFium %s, %d words) %s" % (
            r["textTool"], "%.3f" % r["textPdfium"] if "textPdfium" in r else "-", r.get("words", 0), r["path"]))


if __name__ == "__main__":
    main()
