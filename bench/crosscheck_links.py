#!/usr/bin/env python3
"""Cross-checks pdfpipe's link inventory against PyMuPDF (get_links) on real PDFs.

Usage: bench/crosscheck_links.py REPORT.json INPUT_ROOT [--show N]

REPORT.json comes from `pdfpipe run pipelines/link-audit.json INPUT_ROOT` (inventory on).
For every page of every document, the links pdfpipe read from the raw objects are compared with
PyMuPDF's, in annotation order: count, kind, target page, URI, and rectangle size. Differences are
grouped by cause, with examples, so each can be explained (or fixed).
PyMuPDF is a peer for comparison only (pip install pymupdf); pdfpipe does not need it.
"""
import collections
import json
import os
import sys

import pymupdf

KINDS = {pymupdf.LINK_GOTO: "goto", pymupdf.LINK_URI: "uri", pymupdf.LINK_LAUNCH: "launch",
         pymupdf.LINK_NAMED: "named", pymupdf.LINK_GOTOR: "gotor", pymupdf.LINK_NONE: "none"}


def main():
    report, root = sys.argv[1], sys.argv[2]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 3
    data = json.load(open(report))
    stats = collections.Counter()
    examples = collections.defaultdict(list)

    def differ(cause, where):
        stats[cause] += 1
        if len(examples[cause]) < show:
            examples[cause].append(where)

    for d in data["documents"]:
        links = d.get("links")
        if d["status"] != "ok" or links is None:
            continue
        try:
            doc = pymupdf.open(os.path.join(root, d["path"]))
        except Exception as e:  # noqa: BLE001
            differ("pymupdf cannot open", f"{d['path']}: {e}")
            continue
        by_page = collections.defaultdict(list)
        for link in links:
            by_page[link["page"]].append(link)
        for pno in range(doc.page_count):
            ours = by_page.get(pno + 1, [])
            theirs = doc[pno].get_links()
            stats["pages"] += 1
            if len(ours) != len(theirs):
                differ("link count differs (compared where rectangles pair up)",
                       f"{d['path']} p{pno + 1}: pdfpipe {len(ours)}, pymupdf {len(theirs)}")
            # Same count: pair in annotation order. Otherwise pair by position and size (PyMuPDF
            # drops links it cannot use; its rectangles are relative to the page's top left).
            if len(ours) == len(theirs):
                pairs = list(zip(ours, theirs))
            else:
                pairs = []
                free = list(theirs)
                for a in ours:
                    x1, y1, x2, y2 = a["rect"]
                    best = None
                    for b in free:
                        r = b["from"]
                        if abs((x2 - x1) - (r.x1 - r.x0)) < 0.5 and abs((y2 - y1) - (r.y1 - r.y0)) < 0.5 and abs(x1 - r.x0) < 1:
                            best = b
                            break
                    if best is None:
                        differ(f"only pdfpipe has it: {a['kind']} {a.get('action', '')}".strip(), f"{d['path']} p{pno + 1} {a.get('object', '')}: {a}")
                        continue
                    free.remove(best)
                    pairs.append((a, best))
            used = {id(b) for _, b in pairs}
            for b in theirs:
                if id(b) not in used:
                    differ(f"only pymupdf has it: {KINDS.get(b['kind'], 'other')}", f"{d['path']} p{pno + 1}: {b}")
            for a, b in pairs:
                stats["links"] += 1
                where = f"{d['path']} p{pno + 1} {a.get('object', '')}"
                kind = KINDS.get(b["kind"], "other")
                if kind == "named" and "nameddest" in b:
                    kind = "goto"  # PyMuPDF files named destinations under LINK_NAMED
                our_kind = a["kind"] if a["kind"] in ("goto", "uri", "launch", "named", "gotor") else "other"
                if our_kind != kind:
                    differ(f"kind {our_kind} vs {kind}", f"{where}: {a}")
                    continue
                if kind == "goto":
                    theirs_page = b.get("page", -1)
                    theirs_page = None if theirs_page is None or theirs_page < 0 else theirs_page + 1
                    if a["targetPage"] != theirs_page:
                        differ("target page differs", f"{where}: pdfpipe {a['targetPage']} ({a.get('destination', 'explicit')}), pymupdf {theirs_page}")
                    else:
                        stats["agree"] += 1
                elif kind == "uri":
                    if a.get("uri") != b.get("uri"):
                        differ("uri differs", f"{where}: pdfpipe {a.get('uri')!r}, pymupdf {b.get('uri')!r}")
                    else:
                        stats["agree"] += 1
                else:
                    stats["agree"] += 1
        doc.close()

    print(f"documents: {sum(1 for d in data['documents'] if d.get('links') is not None)}, pages: {stats['pages']}, "
          f"links compared: {stats['links']}, agree: {stats['agree']}")
    for cause, n in stats.most_common():
        if cause in ("pages", "links", "agree"):
            continue
        print(f"- {cause}: {n}")
        for e in examples[cause]:
            print(f"    {e}")


if __name__ == "__main__":
    main()
