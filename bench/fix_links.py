#!/usr/bin/env python3
"""fix-links against the loopback server, judged by other engines (#65); run by bench/fix-links.sh.

    fix_links.py make DIR BASE N KEY CERT   N documents linking to BASE, the first one signed
    fix_links.py verify IN OUT CERT          the repaired copies judged by PDFium, MuPDF, pyHanko

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


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6])
    else:
        sys.exit(1 if verify(sys.argv[2], sys.argv[3], sys.argv[4]) else 0)
