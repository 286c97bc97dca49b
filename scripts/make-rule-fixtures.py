#!/usr/bin/env python3
"""Writes Tests/Fixtures/rules/*.pdf: one small PDF per rule that no sample of samples/ shows, each
with the one construct that gives the rule (its `Rule.sample`; RuleSampleTests checks it fires).
Raw PDF syntax with a correct cross-reference table, so nothing else is reported as damage.

    python3 scripts/make-rule-fixtures.py
"""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "rules")
TEXT = b"BT /F1 12 Tf 20 150 Td (pdfpipe rule sample) Tj ET"
SPACES_CMAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Spaces def"
    b" 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <00> <FF> [" + b"<0020>" * 256
    + b"] endbfrange"
    b" endcmap CMapName currentdict /CMap defineresource pop end end")
URI_TEXT = (
    b"BT /F1 12 Tf 20 150 Td (https://example.org/docs) Tj ET"
    b" BT /F1 12 Tf 20 120 Td (Visit https://example.net/page today.) Tj ET"
    b" BT /F1 12 Tf 20 90 Td (https://example.org/a) Tj ET")
BACKTRACK = b"BT /F1 5 Tf 10 100 Td (" + b"a" * 60 + b") Tj ET"


def pdf(objects, shift=0):
    """A PDF of `objects` (object 1 is the catalog), with a correct xref table (each offset off by
    `shift`: a damaged table, which sends pdfpipe's reading to qpdf's repair)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % (o + shift)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def page(extra=b"", annots=b"", media=b"/MediaBox [0 0 200 200]"):
    """Objects 1-5: catalog, pages, a page (with `extra` entries and `annots`), its content, a font."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R %s >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R " + media + b" /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> "
        + extra + (b" /Annots [" + annots + b"]" if annots else b"") + b" >>",
        b"<< /Length %d >>\nstream\n" % len(TEXT) + TEXT + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]


def with_catalog(objects, entries):
    objects = list(objects)
    objects[0] = objects[0] % entries
    return objects


def link(action):
    return b"<< /Type /Annot /Subtype /Link /Rect [20 20 120 40] /Border [0 0 0] /A " + action + b" >>"


def uri_links(uris):
    """Objects 1-5 of `page` with one URI link per entry of `uris`, top to bottom (objects 6...)."""
    refs = b" ".join(b"%d 0 R" % (6 + i) for i in range(len(uris)))
    return with_catalog(page(annots=refs), b"") + [
        b"<< /Type /Annot /Subtype /Link /Rect [20 %d 180 %d] /Border [0 0 0] /A << /S /URI /URI (%s) >> >>"
        % (180 - 12 * i, 188 - 12 * i, u)
        for i, u in enumerate(uris)
    ]


# Web links for the rules of the external check: `web.test` (a reserved name, RFC 2606: it never
# resolves) is remapped by the samples' stages to scripts/http-fixture.py on loopback, one route
# per behaviour; port 9 on loopback is closed.
WEB = [
    b"http://web.test/status/404",  # uri.http-error
    b"http://web.test/bot/captcha",  # uri.blocked
    b"http://127.0.0.1:9/closed",  # uri.unreachable
    b"http://web.test/slow",  # uri.timeout
    b"http://web.test/always429",  # uri.rate-limited
    b"http://web.test/r/308/ok",  # uri.redirected
    b"http://web.test/loop/a",  # uri.redirect-loop
    b"http://web.test/deep/0",  # uri.too-many-redirects
    b"http://web.test/login.pdf#page=2",  # uri.fragment-unverified (a login page, not the PDF)
]

# Links that answer 200 without reaching the page: `soft.test` and `parked.test` are remapped to
# the fixture's other two sites (127.0.0.2, 127.0.0.3), `web.test/account/private` to a sign-in page.
WEB_SILENT = [
    b"http://soft.test/moved-away",  # uri.soft-404
    b"http://soft.test/welcome",  # a real page on the same site: nothing
    b"http://parked.test/docs/guide",  # uri.parked
    b"http://web.test/account/private",  # uri.login-wall
    b"http://web.test/ok",  # nothing
]

def image_page(image):
    """Objects 1-6: `page` drawing the image XObject `image` (object 6) under its text."""
    objects = with_catalog(page(extra=b"/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >>"), b"")
    objects[2] = objects[2].replace(b"/Resources << /Font << /F1 5 0 R >> >> ", b"")
    content = TEXT + b"\nq 100 0 0 100 50 20 cm /Im1 Do Q"
    objects[3] = b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"
    return objects + [image]


FIXTURES = {
    # A link whose /Rect has three numbers.
    "link-malformed.pdf": with_catalog(page(annots=b"6 0 R"), b"")
    + [b"<< /Type /Annot /Subtype /Link /Rect [20 20 120] /A << /S /URI /URI (https://example.org/) >> >>"],
    # A Named action that is not NextPage, PrevPage, FirstPage or LastPage.
    "action-named-unknown.pdf": with_catalog(page(annots=b"6 0 R"), b"") + [link(b"<< /S /Named /N /GoBack >>")],
    # URIs with a misspelt scheme and an unknown one.
    "uri-schemes.pdf": with_catalog(page(annots=b"6 0 R 7 0 R"), b"")
    + [link(b"<< /S /URI /URI (htps://example.org/) >>"), link(b"<< /S /URI /URI (gopherx://example.org/) >>")],
    # A /Rotate that is not a multiple of 90.
    "page-invalid-rotate.pdf": with_catalog(page(extra=b"/Rotate 45"), b""),
    # A page without a /MediaBox, none inherited.
    "page-no-media-box.pdf": with_catalog(page(media=b""), b""),
    # A form field whose widget runs JavaScript (and so the document has a form).
    "form-javascript.pdf": with_catalog(page(annots=b"6 0 R"), b"/AcroForm << /Fields [6 0 R] >>")
    + [
        b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [20 60 180 80] /P 3 0 R"
        b" /AA << /K << /S /JavaScript /JS (event.rc = true;) >> >> >>"
    ],
    # An embedded file.
    "attachment.pdf": with_catalog(page(), b"/Names << /EmbeddedFiles << /Names [(note.txt) 6 0 R] >> >>")
    + [b"<< /Type /Filespec /F (note.txt) /UF (note.txt) /EF << /F 7 0 R >> >>",
       b"<< /Type /EmbeddedFile /Length 5 >>\nstream\nhello\nendstream"],
    # A GoToR link to a file beside it that exists but is no PDF (this folder's README.md).
    "gotor-unreadable.pdf": with_catalog(page(annots=b"6 0 R"), b"")
    + [link(b"<< /S /GoToR /F (README.md) /D [0 /Fit] >>")],
    # A relative URI to a file outside the input root and the PDF's folder (not followed: skipped).
    "uri-outside-root.pdf": with_catalog(page(annots=b"6 0 R"), b"")
    + [link(b"<< /S /URI /URI (../outside/notes.pdf) >>")],
    # A tagged document whose Link element holds the link's OBJR, but the link has no /StructParent.
    "link-no-struct-parent.pdf": with_catalog(
        page(annots=b"6 0 R"), b"/MarkInfo << /Marked true >> /StructTreeRoot 7 0 R /Lang (en)")
    + [
        b"<< /Type /Annot /Subtype /Link /Rect [20 20 120 40] /Border [0 0 0] /Contents (Go to page 1)"
        b" /A << /S /GoTo /D [3 0 R /Fit] >> >>",
        b"<< /Type /StructTreeRoot /K [8 0 R] /ParentTree 9 0 R >>",
        b"<< /Type /StructElem /S /Link /P 7 0 R /Pg 3 0 R /K [<< /Type /OBJR /Obj 6 0 R >>] /Alt (Go to page 1) >>",
        b"<< /Nums [] >>",
    ],
    # A page tree that declares two pages and has one (qpdf's copy has one: pages lost or found).
    "pages-count-wrong.pdf": [o.replace(b"/Count 1", b"/Count 2") for o in with_catalog(page(), b"")],
    # A link that names its destination in UTF-16BE; the name tree's key is PDFDocEncoding (chap2).
    "dest-name-encoding.pdf": with_catalog(page(annots=b"6 0 R"), b"/Names << /Dests 7 0 R >>")
    + [link(b"<< /S /GoTo /D <FEFF00630068006100700032> >>"), b"<< /Names [(chap2) [3 0 R /Fit]] >>"],
    # A /Dests name tree 70 levels deep (each node one kid; the names at the bottom).
    "name-tree-deep.pdf": with_catalog(page(), b"/Names << /Dests 6 0 R >>")
    + [b"<< /Kids [%d 0 R] /Limits [(a) (a)] >>" % (7 + i) for i in range(69)]
    + [b"<< /Names [(a) [3 0 R /Fit]] /Limits [(a) (a)] >>"],
    # An image whose JPEG data is not JPEG: the page is drawn without it.
    "image-undecodable.pdf": image_page(
        b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8"
        b" /Filter /DCTDecode /Length 16 >>\nstream\nnot a jpeg at al\nendstream"),
    # A damaged xref table (read through qpdf) and a link with an integer past 64 bits: qpdf reads
    # the link as null, poppler reads it.
    "link-integer-overflow.pdf": (
        with_catalog(page(annots=b"6 0 R"), b"")
        + [b"<< /Type /Annot /Subtype /Link /Rect [20 20 120 40] /Border [0 0 0] /StructParent 99999999999999999999"
           b" /A << /S /URI /URI (https://example.org/) >> >>"],
        2,
    ),
    # A line of 60 a's: a regular expression with nested repeats, (a+)+b, backtracks on it for
    # longer than a page's 2 s (2^60 ways to split the line).
    "text-backtracks.pdf": [
        o.replace(b"/Length %d" % len(TEXT), b"/Length %d" % len(BACKTRACK)).replace(TEXT, BACKTRACK)
        for o in with_catalog(page(), b"")
    ],
    # A line of text whose font's /ToUnicode maps every code to a space: the content shows 19
    # characters, poppler's extraction reads only white space (text.extraction-incomplete).
    "text-unreadable.pdf": with_catalog(page(), b"")[:4]
    + [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
       b"<< /Length %d >>\nstream\n" % len(SPACES_CMAP) + SPACES_CMAP + b"\nendstream"],
    # A tagged link whose alternate text is a web address other than its target: a person reads
    # one address and goes to another (access.link-purpose; the target's own address would pass).
    "access-link-purpose.pdf": with_catalog(
        page(annots=b"6 0 R", extra=b"/Tabs /S"), b"/MarkInfo << /Marked true >> /StructTreeRoot 7 0 R")
    + [b"<< /Type /Annot /Subtype /Link /Rect [20 20 120 40] /Border [0 0 0] /StructParent 0"
       b" /Contents (https://example.org/) /A << /S /URI /URI (https://example.com/other) >> >>",
       b"<< /Type /StructTreeRoot /K 8 0 R /ParentTree 9 0 R >>",
       b"<< /Type /StructElem /S /Link /P 7 0 R /Pg 3 0 R /K << /Type /OBJR /Obj 6 0 R >> >>",
       b"<< /Nums [0 8 0 R] >>"],
    # Text and links (uri.text-mismatch, uri.unlinked; with textChecks): an address shown over a
    # link to another site, an address in the text without a link, and one shown over its own link.
    "uri-text.pdf": [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R 7 0 R] >>",
        b"<< /Length %d >>\nstream\n" % len(URI_TEXT) + URI_TEXT + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Annot /Subtype /Link /Rect [18 145 200 162] /Border [0 0 0]"
        b" /A << /S /URI /URI (https://example.com/login) >> >>",
        b"<< /Type /Annot /Subtype /Link /Rect [18 85 200 102] /Border [0 0 0]"
        b" /A << /S /URI /URI (https://example.org/a/) >> >>",
    ],
    # One web link per behaviour of the fixture server (WEB).
    "web-links.pdf": uri_links(WEB),
    "web-silent.pdf": uri_links(WEB_SILENT),
    # A link whose host answers 429 once, then 200 (uri.recovered).
    "web-recovered.pdf": uri_links([b"http://web.test/ratelimited/sample"]),
    # Three hosts on loopback where nothing listens: no host answers (uri.network-down).
    "network-down.pdf": uri_links([b"http://127.0.0.1:9/a", b"http://127.0.0.2:9/b", b"http://127.0.0.3:9/c"]),
}

os.makedirs(OUT, exist_ok=True)
for name, objects in FIXTURES.items():
    objects, shift = objects if isinstance(objects, tuple) else (objects, 0)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(pdf(objects, shift))
print(f"make-rule-fixtures: wrote {len(FIXTURES)} files to Tests/Fixtures/rules")
