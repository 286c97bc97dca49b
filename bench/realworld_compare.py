#!/usr/bin/env python3
"""Judges a link audit of bench/realworld.sh's corpus (see there).

Usage: bench/realworld_compare.py REPORT.json CORPUS

Prints: findings per severity and rule; internal links (goto) whose target page pdfpipe gives
differently from PDFium (pypdfium2) or MuPDF (PyMuPDF), by cause, with examples; and for the
generated files (generated/expected.json), the deliberate breaks found, missed, and the findings
that are not among them (false alarms).
"""
import collections
import ctypes
import json
import os
import sys

import pymupdf
import pypdfium2 as pdfium
import pypdfium2.raw as raw


def pdfium_targets(path):
    """Per page (1-based), the target page (1-based, or None) of each link annotation, in order."""
    doc = pdfium.PdfDocument(path)
    out = {}
    for i in range(len(doc)):
        page = doc[i]
        pos, link, targets = ctypes.c_int(0), raw.FPDF_LINK(), []
        while raw.FPDFLink_Enumerate(page.raw, ctypes.byref(pos), ctypes.byref(link)):
            dest = raw.FPDFLink_GetDest(doc.raw, link)
            if not dest:
                action = raw.FPDFLink_GetAction(link)
                if action and raw.FPDFAction_GetType(action) == raw.PDFACTION_GOTO:
                    dest = raw.FPDFAction_GetDest(doc.raw, action)
            idx = raw.FPDFDest_GetDestPageIndex(doc.raw, dest) if dest else -1
            targets.append(idx + 1 if idx >= 0 else None)
        out[i + 1] = targets
    return out


def mupdf_targets(path):
    doc = pymupdf.open(path)
    out = {}
    for i, page in enumerate(doc):
        out[i + 1] = [(l["page"] + 1 if l.get("kind") == pymupdf.LINK_GOTO and l.get("page", -1) >= 0 else None)
                      for l in page.get_links()]
    return out


def main():
    report, corpus = sys.argv[1], sys.argv[2]
    data = json.load(open(report))
    by_rule = collections.Counter()
    for d in data["documents"]:
        for f in d["findings"]:
            by_rule[(f["severity"], f["rule"])] += 1
    s = data["summary"]
    print(f"{s['documents']} documents, {s['pages']} pages, {s['failedDocuments']} failed: "
          f"{s['errors']} errors, {s['warnings']} warnings, {s['notes']} notes")
    for (sev, rule), n in sorted(by_rule.items(), key=lambda x: ({"error": 0, "warning": 1, "note": 2}[x[0][0]], -x[1])):
        print(f"  {sev:8} {rule:32} {n}")

    compared, differences, examples = 0, collections.Counter(), collections.defaultdict(list)
    for d in data["documents"]:
        links = d.get("links")
        if d["status"] != "ok" or not links:
            continue
        path = os.path.join(corpus, d["path"])
        try:
            peers = {"PDFium": pdfium_targets(path), "MuPDF": mupdf_targets(path)}
        except Exception as e:  # a peer that cannot open it is a difference too
            differences[f"a peer cannot open it: {type(e).__name__}"] += 1
            continue
        ours = collections.defaultdict(list)
        for l in links:
            ours[l["page"]].append(l)
        for page, mine in ours.items():
            for name, theirs in peers.items():
                t = theirs.get(page, [])
                if name == "MuPDF":
                    # MuPDF drops links without a usable target; compare the goto ones by rectangle order only.
                    continue
                if len(t) != len(mine):
                    differences[f"{name}: another number of links on the page"] += 1
                    continue
                for a, b in zip(mine, t):
                    if a.get("kind") != "goto":
                        continue
                    compared += 1
                    if a.get("targetPage") != b:
                        cause = f"{name} goes to page {'none' if b is None else 'another'}"
                        differences[cause] += 1
                        if len(examples[cause]) < 3:
                            examples[cause].append(f"{d['path']} p{page}: pdfpipe {a.get('targetPage')} vs {b}")
    print(f"\ninternal links compared with PDFium: {compared}; differences: {sum(differences.values())}")
    for cause, n in differences.most_common():
        print(f"  {n:6}  {cause}")
        for e in examples[cause]:
            print(f"          {e}")

    expected_file = os.path.join(corpus, "generated", "expected.json")
    if os.path.exists(expected_file):
        expected = json.load(open(expected_file))
        found = missed = false_alarms = 0
        print("\ngenerated files (deliberate breaks):")
        for d in data["documents"]:
            name = os.path.basename(d["path"])
            if not d["path"].startswith("generated/") or name not in expected:
                continue
            want = collections.Counter(expected[name])
            got = collections.Counter(f["rule"] for f in d["findings"] if f["severity"] != "note")
            hit = sum((want & got).values())
            found += hit
            missed += sum((want - got).values())
            extra = got - want
            false_alarms += sum(extra.values())
            print(f"  {name:18} expected {sum(want.values())}, found {hit}, missed {dict(want - got) or 0}, false alarms {dict(extra) or 0}")
        print(f"  total: found {found}, missed {missed}, false alarms {false_alarms}")

    judged_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "realworld-pypi-judged.json")
    pypi = [d for d in data["documents"] if d["path"].startswith("pypi/")]
    if pypi and os.path.exists(judged_file):
        judged = json.load(open(judged_file))["files"]
        confirmed = unjudged = missed = 0
        print(f"\nPyPI sdists' PDFs ({len(pypi)} files; errors and warnings against bench/realworld-pypi-judged.json):")
        for d in pypi:
            key = d["path"][len("pypi/"):]
            want = collections.Counter(judged.get(key, {}).get("findings", []))
            got = collections.Counter(f["rule"] for f in d["findings"] if f["severity"] != "note")
            confirmed += sum((want & got).values())
            if got - want:
                unjudged += sum((got - want).values())
                print(f"  not judged yet (a false alarm?): {key}: {dict(got - want)}")
            if want - got:
                missed += sum((want - got).values())
                print(f"  judged real, no longer found (a miss?): {key}: {dict(want - got)}")
        print(f"  total: {confirmed} judged real, {unjudged} not judged, {missed} no longer found")


if __name__ == "__main__":
    main()
