#!/usr/bin/env python3
"""Where viewers land on a destination whose top lies below the bottom of its page (#63, 6).

    python3 bench/viewers.py WORK      (bench/viewers.sh runs it with Chromium and the venv)

Writes WORK/dests.pdf: three pages, each filled with its own colour (red, green, blue), and named
destinations on page 1 with their top 20, 100 and 295 pt below its bottom (Chromium's headings
reach 295), one 100 pt below the bottom of the last page, plus controls: page 1 at y 400, above its top, and page 2's top. Then for each name:
- Chrome's PDF viewer (PDFium inside, pages in one continuous scroll): the file opened at
  #nameddest=NAME through the DevTools protocol of a headless Chromium on port 9333, a screenshot
  taken, and the page whose colour fills the top of the view read from it, with how far below
  that page's top the view starts;
- MuPDF (PyMuPDF's `resolve_link`, the page and point its viewer `mupdf-gl`, one page at a time,
  goes to);
- PDFium's own reading of the destination (pypdfium2: page index and location in the page).
"""
import base64, ctypes, json, os, sys, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pdfgen import pdf  # noqa: E402

COLOURS = [(1, 0, 0), (0, 0.6, 0), (0, 0, 1)]
CASES = {"below-20": (0, -20), "below-100": (0, -100), "below-295": (0, -295),
         "last-below-100": (2, -100), "mid-400": (0, 400), "above-top": (0, 900), "page2-top": (1, 792)}


def write(path):
    objs = []
    names = " ".join("(%s) [%d 0 R /XYZ 0 %d null]" % (n, 3 + p, y) for n, (p, y) in sorted(CASES.items()))
    objs.append("<< /Type /Catalog /Pages 2 0 R /Names << /Dests << /Names [%s] >> >> >>" % names)
    objs.append("<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>")
    for i in range(3):
        objs.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>" % (6 + i))
    for r, g, b in COLOURS:
        s = "%g %g %g rg 0 0 612 792 re f" % (r, g, b)
        objs.append("<< /Length %d >>\nstream\n%s\nendstream" % (len(s), s))
    open(path, "wb").write(pdf(objs))


def chrome(path, name):
    import websocket
    from PIL import Image
    import io
    tab = json.load(urllib.request.urlopen(urllib.request.Request("http://localhost:9333/json/new?about:blank", method="PUT")))
    ws = websocket.create_connection(tab["webSocketDebuggerUrl"])
    seq = [0]

    def call(method, **params):
        seq[0] += 1
        ws.send(json.dumps({"id": seq[0], "method": method, "params": params}))
        while True:
            m = json.loads(ws.recv())
            if m.get("id") == seq[0]:
                return m
    call("Page.navigate", url="file://%s#nameddest=%s" % (path, name))
    time.sleep(6)
    shot = Image.open(io.BytesIO(base64.b64decode(call("Page.captureScreenshot")["result"]["data"]))).convert("RGB")
    urllib.request.urlopen("http://localhost:9333/json/close/" + tab["id"])
    # The view's content: right of the thumbnails, below the toolbar; the page at its top.
    x, top = shot.width - 60, 60

    def page_at(y):
        r, g, b = shot.getpixel((x, y))
        for i, (cr, cg, cb) in enumerate(COLOURS):
            if abs(r - cr * 255) < 60 and abs(g - cg * 255) < 60 and abs(b - cb * 255) < 60:
                return i
        return None
    page = page_at(top)
    # How far into that page the view starts: rows down to where the page ends, against the
    # page's height on screen (the screen shows pages at one scale).
    y = top
    while y < shot.height and page_at(y) == page:
        y += 1
    return page, y - top


def main(work):
    path = work + "/dests.pdf"
    write(path)
    import fitz, pypdfium2, pypdfium2.raw as raw
    doc = fitz.open(path)
    pdf = pypdfium2.PdfDocument(path)
    print("%-10s %-32s %-28s %s" % ("name", "Chrome's PDF viewer", "MuPDF", "PDFium (the destination)"))
    for name, (p, y) in CASES.items():
        seen, rows = chrome(path, name)
        mu = doc.resolve_link("#nameddest=" + name)
        dest = raw.FPDF_GetNamedDestByName(pdf.raw, name.encode())
        idx = raw.FPDFDest_GetDestPageIndex(pdf.raw, dest)
        hx, hy, hz = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        fx, fy, fz = ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
        raw.FPDFDest_GetLocationInPage(dest, hx, hy, hz, fx, fy, fz)
        print("%-10s %-32s %-28s %s" % (
            name, "page %s (%d px of it shown)" % (None if seen is None else seen + 1, rows),
            "page %d at y %.0f" % (mu[0] + 1, mu[2]) if mu and mu[0] >= 0 else str(mu),
            "page %d, top %s" % (idx + 1, fy.value if hy.value else None)))


if __name__ == "__main__":
    main(sys.argv[1])
