#!/usr/bin/env python3
"""Right-to-left word recall against the typeset text (#63); run by bench/rtl-truth.sh.

    rtl_truth.py make TEXTS WORK       HTML for Chromium, and Typst and WeasyPrint PDFs in WORK/pdf
    rtl_truth.py measure TEXTS PDFS TEXT_OUT

A word is a run of letters, marks and digits (NFKC; zero-width joiners and non-joiners left out, as
a search ignores them), cut where the direction changes: punctuation, which every tool places
differently around a right-to-left run, is no part of it. Recall is the share of the typeset text's
words (with their counts) a tool's text has.
"""
import collections, glob, html, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtl_words import RTL, letter_words  # noqa: E402
COPIES = 6
LANG = {"ar": "ar", "fa": "fa", "he": "he", "arv": "ar", "hev": "he", "mix": "fa"}


def words(text):
    return letter_words(text, nfkc=True)


def make(texts, work):
    import typst, weasyprint
    for path in sorted(glob.glob(os.path.join(texts, "*.txt"))):
        n = os.path.basename(path)[:-4]
        lines = open(path, encoding="utf-8").read().strip().splitlines() * COPIES
        body = "".join("<p>%s</p>" % html.escape(l) for l in lines)
        page = ('<!doctype html><html lang="%s" dir="rtl"><meta charset="utf-8"><style>body{font-family:'
                '"DejaVu Sans";font-size:13pt}</style><body>%s</body></html>' % (LANG[n], body))
        with open(os.path.join(work, n + ".html"), "w", encoding="utf-8") as f:
            f.write(page)
        weasyprint.HTML(os.path.join(work, n + ".html")).write_pdf(os.path.join(work, "pdf", "weasyprint-%s.pdf" % n))
        escaped = "\n\n".join(re.sub(r"([#*_\\$@<`\[\]])", r"\\\1", l) for l in lines)
        with open(os.path.join(work, n + ".typ"), "w", encoding="utf-8") as f:
            f.write('#set text(font: "DejaVu Sans", lang: "%s", size: 12pt)\n#set par(justify: true)\n%s\n'
                    % (LANG[n], escaped))
        typst.compile(os.path.join(work, n + ".typ"), output=os.path.join(work, "pdf", "typst-%s.pdf" % n))


def measure(texts, pdfs, text_out):
    tools = ["pdfpipe", "pdftotext", "mutool"]
    found = {t: collections.Counter() for t in tools}
    total = collections.Counter()
    for pdf in sorted(glob.glob(os.path.join(pdfs, "*.pdf"))):
        name = os.path.basename(pdf)[:-4]
        producer, n = name.split("-", 1)
        truth = collections.Counter({w: c * COPIES for w, c in words(open(os.path.join(texts, n + ".txt"), encoding="utf-8").read()).items()})
        mine = os.path.join(text_out, name + ".txt")
        read = {
            "pdfpipe": open(mine, encoding="utf-8").read() if os.path.exists(mine) else "",
            "pdftotext": subprocess.run(["pdftotext", pdf, "-"], capture_output=True).stdout.decode("utf-8", "replace"),
            "mutool": subprocess.run(["mutool", "draw", "-F", "txt", "-o", "-", pdf], capture_output=True).stdout.decode("utf-8", "replace"),
        }
        n_truth = sum(truth.values())
        row = []
        for t in tools:
            f = sum((truth & words(read[t])).values())
            found[t][producer] += f
            found[t]["all"] += f
            row.append("%s %.3f" % (t, f / n_truth))
        total[producer] += n_truth
        total["all"] += n_truth
        print("%-18s %s" % (name, "  ".join(row)))
    print()
    for producer in sorted(total, key=lambda p: (p == "all", p)):
        print("%-10s %s" % (producer, "  ".join("%s %.3f" % (t, found[t][producer] / total[producer]) for t in tools)))
    print("pdfpipe / pdftotext (target >= 0.95): %.3f" % (found["pdfpipe"]["all"] / max(1, found["pdftotext"]["all"])))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        measure(sys.argv[2], sys.argv[3], sys.argv[4])
