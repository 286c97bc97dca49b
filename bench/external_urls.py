#!/usr/bin/env python3
"""The URL set of bench/external.sh, and the side-by-side comparison of verdicts.

    external_urls.py make PORT DIR KIND   writes DIR/urls.txt (for lychee) and DIR/links.pdf (for pdfpipe);
                                          KIND: behaviours (every route) or throughput (3300 plain URLs)
    external_urls.py compare PDFPIPE_REPORT LYCHEE_JSON
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdfgen import pdf  # noqa: E402


def urls(port, kind):
    b = "http://127.0.0.1:%s" % port
    if kind == "throughput":
        return ["%s/ok?n=%d" % (b, i) for i in range(3000)] + ["%s/status/404?n=%d" % (b, i) for i in range(300)]
    out = []
    out += ["%s/ok?n=%d" % (b, i) for i in range(400)]
    out += ["%s/status/404?n=%d" % (b, i) for i in range(80)]
    out += ["%s/status/410?n=%d" % (b, i) for i in range(10)]
    out += ["%s/r/301/ok?r=%d" % (b, i) for i in range(40)]
    out += ["%s/r/302/ok?t=%d" % (b, i) for i in range(20)]
    out += ["%s/r/308/ok?p=%d" % (b, i) for i in range(10)]
    out += ["%s/status/500?n=%d" % (b, i) for i in range(5)]
    out += ["%s/flaky/%d" % (b, i) for i in range(5)]
    out += ["%s/ratelimited/%d" % (b, i) for i in range(3)]
    out += ["%s/nohead?n=%d" % (b, i) for i in range(10)]
    out += [b + "/chain", b + "/loop/a", b + "/deep/0", b + "/slow", b + "/big", "http://127.0.0.1:9/closed"]
    return out


def write_pdf(path, uris, per_page=40):
    pages = [uris[i:i + per_page] for i in range(0, len(uris), per_page)]
    objs = ["<< /Type /Catalog /Pages 2 0 R >>", None]
    kids = []
    for page in pages:
        first_annot = len(objs) + 2
        annots = " ".join("%d 0 R" % (first_annot + i) for i in range(len(page)))
        kids.append(len(objs) + 1)
        objs.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 900] /Annots [%s] >>" % annots)
        for i, u in enumerate(page):
            y = 860 - i * 20
            objs.append("<< /Type /Annot /Subtype /Link /Rect [72 %d 400 %d] /Border [0 0 0] /A << /S /URI /URI (%s) >> >>" % (y, y + 12, u))
    objs[1] = "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % k for k in kids), len(kids))
    with open(path, "wb") as f:
        f.write(pdf(objs))


def pdfpipe_verdicts(path):
    report = json.load(open(path))
    v = {}
    for d in report["documents"]:
        for link in d.get("links", []):
            c = link.get("check") or {}
            o = c.get("outcome")
            if o in ("ok", "ok-after-retry", "redirected"):
                verdict = "ok"
            elif o == "http-error":
                verdict = "http-%s" % c.get("status")
            elif o in ("redirect-loop", "too-many-redirects"):
                verdict = "redirects"
            else:
                verdict = o
            v[link["uri"]] = verdict
    return v


def lychee_verdicts(path):
    report = json.load(open(path))
    v = {}
    for items in report.get("success_map", {}).values():
        for i in items:
            v[i["url"]] = "ok"
    for items in report.get("timeout_map", {}).values():
        for i in items:
            v[i["url"]] = "timeout"
    for items in report.get("error_map", {}).values():
        for i in items:
            code = i["status"].get("code")
            if code is None:
                v[i["url"]] = "unreachable"
            elif 300 <= code < 400:
                v[i["url"]] = "redirects"
            else:
                v[i["url"]] = "http-%d" % code
    return v


def compare(pdfpipe_report, lychee_json):
    a = pdfpipe_verdicts(pdfpipe_report)
    b = lychee_verdicts(lychee_json)
    urls = sorted(set(a) | set(b))
    counts = {}
    differ = []
    for u in urls:
        key = (a.get(u, "-"), b.get(u, "-"))
        counts[key] = counts.get(key, 0) + 1
        if key[0] != key[1]:
            differ.append((u, key))
    print("%-14s %-14s %s" % ("pdfpipe", "lychee", "URLs"))
    for (x, y), n in sorted(counts.items()):
        print("%-14s %-14s %d%s" % (x, y, n, "" if x == y else "   <- differ"))
    print("same verdict on %d of %d URLs" % (len(urls) - len(differ), len(urls)))
    for u, (x, y) in differ[:20]:
        why = ""
        if "/flaky/" in u and x == "ok" and y == "http-500":
            why = "  (answers 500 once, then 200: pdfpipe retries 5xx, lychee retries only 429 and network errors)"
        print("  differ: %s pdfpipe=%s lychee=%s%s" % (u, x, y, why))
    return len(differ)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        port, folder, kind = sys.argv[2], sys.argv[3], sys.argv[4]
        u = urls(port, kind)
        with open(folder + "/urls.txt", "w") as f:
            f.write("\n".join(u) + "\n")
        write_pdf(folder + "/links.pdf", u)
    else:
        sys.exit(1 if compare(sys.argv[2], sys.argv[3]) else 0)
