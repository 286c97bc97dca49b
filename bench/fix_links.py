#!/usr/bin/env python3
"""fix-links against the loopback server, judged by other engines (#65); run by bench/fix-links.sh.

    fix_links.py make DIR BASE N KEY CERT   N documents linking to BASE, the first one signed
    fix_links.py verify IN OUT CERT          the repaired copies judged by PDFium, MuPDF, pyHanko
    fix_links.py make-set DIR BASE          the issue's fixture set (below), in 10 documents
    fix_links.py judge-set IN OUT BASE      its report and repaired copies judged

The fixture set (#65's targets): 50 permanent redirects, 30 dead links with captures (10 near the
documents' date, 10 far, 10 whose closest capture is an archived error page), 20 dead links with
none, 10 links on 10 hosts without 404s (soft 404s), 5 on a parked domain, 5 behind a sign-in, and
100 healthy pages (10 of them real pages on the soft hosts). Every fixable link must be rewritten to
its one right target and nothing else changed; the silent passes said and not fixed; the healthy
pages without a flag.

Each document has seven links: a 301 and a 308 redirect (fixable, each distinct per document by
its query), a 302 (not fixable: temporary), a 301-then-302 chain (fixed to the 301's target, /chain2: the fixture drops the query there),
a healthy page, a 404 (not fixable), and a named destination written in another case than its
anchor (fixable). `verify` checks each repaired copy: the original's bytes are its prefix; PDFium
(pypdfium2) and MuPDF (PyMuPDF) read exactly the expected targets; and the signed document's
signature, checked by pyHanko, still covers the original revision intact.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdfgen import pdf  # noqa: E402


def links(base, i):
    return [base + "/r/301/ok?d=%d" % i, base + "/r/308/page.html?d=%d#intro" % i, base + "/r/302/ok?d=%d" % i,
            base + "/chain?d=%d" % i, base + "/ok?d=%d" % i, base + "/status/404?d=%d" % i]


def expected(base, i):
    """The targets after fix-links, in link order (the named destination last)."""
    return [base + "/ok?d=%d" % i, base + "/page.html?d=%d#intro" % i, base + "/r/302/ok?d=%d" % i,
            base + "/chain2", base + "/ok?d=%d" % i, base + "/status/404?d=%d" % i, "Intro"]


def document(base, i):
    uris = links(base, i)
    n = len(uris) + 1
    annots = " ".join("%d 0 R" % (5 + k) for k in range(n))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R /Names << /Dests 4 0 R >> >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [%s] >>" % annots,
        "<< /Names [(Intro) [3 0 R /XYZ 0 792 null]] >>",
    ]
    for k, u in enumerate(uris):
        objects.append("<< /Type /Annot /Subtype /Link /Rect [72 %d 300 %d] /Border [0 0 0] /A << /S /URI /URI (%s) >> >>"
                       % (760 - 20 * k, 772 - 20 * k, u))
    objects.append("<< /Type /Annot /Subtype /Link /Rect [72 600 300 612] /Border [0 0 0] /Dest (intro) >>")
    return pdf(objects)


def make(folder, base, n, key, cert):
    os.makedirs(folder, exist_ok=True)
    for i in range(n):
        with open(os.path.join(folder, "doc%04d.pdf" % i), "wb") as f:
            f.write(document(base, i))
    # The first one signed (an approval signature, pyHanko, a self-signed certificate).
    from pyhanko.sign import signers
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    signer = signers.SimpleSigner.load(key, cert)
    path = os.path.join(folder, "doc0000.pdf")
    with open(path, "rb") as f:
        w = IncrementalPdfFileWriter(f)
        signed = signers.sign_pdf(w, signers.PdfSignatureMetadata(field_name="Signature"), signer=signer)
        data = signed.getvalue()
    with open(path, "wb") as f:
        f.write(data)


def targets_pdfium(path):
    import pypdfium2 as pdfium, pypdfium2.raw as raw, ctypes
    doc = pdfium.PdfDocument(path)
    page = doc[0]
    out = []
    pos = ctypes.c_int(0)
    link = raw.FPDF_LINK()
    while raw.FPDFLink_Enumerate(page.raw, pos, link):
        action = raw.FPDFLink_GetAction(link)
        if action and raw.FPDFAction_GetType(action) == raw.PDFACTION_URI:
            n = raw.FPDFAction_GetURIPath(doc.raw, action, None, 0)
            buf = ctypes.create_string_buffer(n)
            raw.FPDFAction_GetURIPath(doc.raw, action, buf, n)
            out.append(buf.value.decode())
        elif raw.FPDFLink_GetDest(doc.raw, link):
            out.append("page %d" % (raw.FPDFDest_GetDestPageIndex(doc.raw, raw.FPDFLink_GetDest(doc.raw, link)) + 1))
    return out


def targets_poppler(path):
    """The URLs poppler reads (pdfinfo -url: page, type, URL per line)."""
    import subprocess
    out = subprocess.run(["pdfinfo", "-url", path], capture_output=True, text=True).stdout
    return [line.split(None, 2)[2] for line in out.splitlines()[1:] if len(line.split(None, 2)) == 3]


def targets_mupdf(path):
    import fitz
    doc = fitz.open(path)
    return [l.get("uri") or ("page %d" % (l["page"] + 1) if l.get("page", -1) >= 0 else "unresolved")
            for l in doc[0].get_links()]


def verify(folder_in, folder_out, cert):
    names = sorted(f for f in os.listdir(folder_in) if f.endswith(".pdf"))
    base = None
    bad = 0
    for name in names:
        i = int(name[3:7])
        original = open(os.path.join(folder_in, name), "rb").read()
        fixed_path = os.path.join(folder_out, "fixed", name)
        if not os.path.exists(fixed_path):
            print("no repaired copy of", name); bad += 1; continue
        fixed = open(fixed_path, "rb").read()
        if not fixed.startswith(original):
            print(name, ": the original is not a prefix"); bad += 1
        if base is None:
            import re
            base = re.search(rb"\((http://127\.0\.0\.1:\d+)/", original).group(1).decode()
        want = expected(base, i)[:-1] + ["page 1"]
        for engine, read in (("PDFium", targets_pdfium), ("MuPDF", targets_mupdf)):
            got = read(fixed_path)
            if sorted(got) != sorted(want):
                print(name, engine, "reads", got, "expected", want); bad += 1
    print("repaired copies: %d of %d; wrong: %d (PDFium and MuPDF read the expected targets in the rest)" % (
        sum(os.path.exists(os.path.join(folder_out, "fixed", n)) for n in names), len(names), bad))
    # The signed one.
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko_certvalidator import ValidationContext
    vc = ValidationContext(trust_roots=[load_cert_from_pemder(cert)])
    with open(os.path.join(folder_out, "fixed", names[0]), "rb") as f:
        sig = PdfFileReader(f).embedded_signatures[0]
        status = validate_pdf_signature(sig, vc)
        print("signed document after fix-links: intact=%s valid=%s coverage=%s modifications=%s" % (
            status.intact, status.valid, status.coverage.name, status.modification_level.name))
    return bad


def fixture_set(base):
    """(url, category, expected target or None) for the 220 links."""
    host = base.rsplit(":", 1)
    soft = ["%s%d:%s" % (host[0][:-1], k, host[1]) for k in range(4, 14)]  # http://127.0.0.K:PORT
    parked = "%s3:%s" % (host[0][:-1], host[1])
    cap = base + "/archive/web/"
    links = []
    for k in range(25):
        links.append((base + "/r/301/ok?s=%d" % k, "redirect", base + "/ok?s=%d" % k))
        links.append((base + "/r/308/page.html?s=%d" % k, "redirect", base + "/page.html?s=%d" % k))
    for k in range(10):
        u = base + "/status/404?cap=near-%d" % k
        links.append((u, "archived", cap + "20210226120000/" + u))
        u = base + "/status/404?cap=far-%d" % k
        links.append((u, "archived", cap + "20030615000000/" + u))
        u = base + "/status/410?cap=errpage-%d" % k
        links.append((u, "archived", cap + "20210219000000/" + u))
    for k in range(20):
        links.append((base + "/status/404?cap=none-%d" % k, "dead", None))
    for k, h in enumerate(soft):
        links.append((h + "/moved-%d" % k, "soft-404", None))
        links.append((h + "/welcome", "healthy", None))
    for k in range(5):
        links.append((parked + "/p-%d" % k, "parked", None))
        links.append((base + "/account/private?l=%d" % k, "login-wall", None))
    for k in range(80):
        links.append((base + "/ok?h=%d" % k, "healthy", None))
    for k in range(10):
        links.append((base + "/page.html?h=%d" % k, "healthy", None))
    return links


def make_set(folder, base):
    os.makedirs(folder, exist_ok=True)
    links = fixture_set(base)
    for d in range(10):
        uris = [u for i, (u, _, _) in enumerate(links) if i % 10 == d]
        annots = " ".join("%d 0 R" % (4 + k) for k in range(len(uris)))
        objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                   "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [%s] >>" % annots]
        for k, u in enumerate(uris):
            objects.append("<< /Type /Annot /Subtype /Link /Rect [72 %d 300 %d] /Border [0 0 0] /A << /S /URI /URI (%s) >> >>"
                           % (760 - 30 * k, 772 - 30 * k, u))
        objects.append("<< /Title (fixture set %d) /ModDate (D:20210301120000Z) >>" % d)
        data = pdf(objects).replace(b"/Root 1 0 R", b"/Root 1 0 R /Info %d 0 R" % len(objects), 1)
        with open(os.path.join(folder, "set%02d.pdf" % d), "wb") as f:
            f.write(data)


def judge_set(folder_in, folder_out, base):
    import json, re, subprocess
    links = fixture_set(base)
    want = {u: t for u, c, t in links if t}
    category = {u: c for u, c, _ in links}
    report = json.load(open(os.path.join(folder_out, "report.json")))
    got, said, bad = {}, {}, 0
    for doc in report["documents"]:
        for c in (doc.get("fixes") or {}).get("changed", []):
            got[c["from"]] = c["to"]
        for f in doc.get("findings", []):
            if f.get("uri") and f["severity"] != "note":
                said.setdefault(f["uri"], set()).add(f["rule"])
    for u, t in want.items():
        if got.get(u) != t:
            print("wrong fix:", u, "->", got.get(u), "expected", t); bad += 1
    for u in got:
        if u not in want:
            print("changed but should not be:", u, "->", got[u]); bad += 1
    rules = {"soft-404": "uri.soft-404", "parked": "uri.parked", "login-wall": "uri.login-wall"}
    flagged = {r: [u for u, c in category.items() if r in said.get(u, set())] for r in rules.values()}
    for c, r in rules.items():
        expected = sorted(u for u, k in category.items() if k == c)
        if sorted(flagged[r]) != expected:
            print(r, "said on", sorted(flagged[r]), "expected", expected); bad += 1
    healthy_flags = [u for u, c in category.items() if c == "healthy" and said.get(u)]
    if healthy_flags:
        print("healthy pages flagged:", healthy_flags); bad += 1
    # Each copy: the original a prefix, one new object per changed link, qpdf --check clean, and
    # PDFium and MuPDF read the original targets with the fixes applied.
    objects = 0
    for name in sorted(os.listdir(folder_in)):
        original = open(os.path.join(folder_in, name), "rb").read()
        path = os.path.join(folder_out, "fixed", name)
        fixed = open(path, "rb").read()
        if not fixed.startswith(original):
            print(name, ": the original is not a prefix"); bad += 1
        objects += len(re.findall(rb"\d+ 0 obj", fixed[len(original):]))
        if subprocess.run(["qpdf", "--check", path], capture_output=True).returncode != 0:
            print(name, ": qpdf --check fails"); bad += 1
        before = [u.decode() for u in re.findall(rb"/URI \((.*?)\) >>", original)]
        expected = sorted(want.get(u, u) for u in before)
        for engine, read in (("poppler", targets_poppler), ("PDFium", targets_pdfium), ("MuPDF", targets_mupdf)):
            if sorted(read(path)) != expected:
                print(name, engine, "reads other targets"); bad += 1
    print("fixture set: %d links; %d fixes expected, %d made, %d wrong; %d objects in the updates; "
          "soft-404 %d/10, parked %d/5, login-wall %d/5; healthy flagged %d/100; poppler, PDFium and MuPDF read "
          "the expected targets unless said above; problems: %d" % (
              len(links), len(want), len(got), sum(1 for u in want if got.get(u) != want[u]), objects,
              len(flagged["uri.soft-404"]), len(flagged["uri.parked"]), len(flagged["uri.login-wall"]),
              len(healthy_flags), bad))
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "make-set":
        make_set(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if sys.argv[1] == "judge-set":
        sys.exit(1 if judge_set(sys.argv[2], sys.argv[3], sys.argv[4]) else 0)
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6])
    else:
        sys.exit(1 if verify(sys.argv[2], sys.argv[3], sys.argv[4]) else 0)
