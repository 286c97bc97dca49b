"""Writes the hostile files of issue 44 (survival by default) into a folder: bench/survival.sh runs
them. The tests write the same kinds in Swift (Tests/TestSupport/SurvivalPDFs.swift); these are
the larger measured forms.

    python3 bench/hostile.py DIR [TARPIT_PORT]
"""
import zlib, sys, os
def pdf(objs, xref_stream=None):
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs)+1)
    for o in offs: out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs)+1, x)
    return bytes(out)
def stream(data, extra=b"", compress=True):
    if compress:
        data = zlib.compress(data, 9); extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"
def pages(kids_objs, first=3):
    n=len(kids_objs)
    return b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (first+i) for i in range(n)), n)
out = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 8999
os.makedirs(out, exist_ok=True)
# 2 Type3 recursion
t3 = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
      stream(b"BT /F1 50 Tf 20 50 Td (a) Tj ET", compress=False),
      b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(b"1000 0 d0 BT /F1 1000 Tf 0 0 Td (a) Tj ET", compress=False)]
open(out+"/type3-recursion.pdf","wb").write(pdf(t3))
# 3 huge pages
hp = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 5 0 R >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 5 0 R >>",
      stream(b"0 0 1 rg 100 100 1000 1000 re f", compress=False)]
open(out+"/huge-pages.pdf","wb").write(pdf(hp))
# 4 operator bomb
ops = b"".join(b"%d %d 300 300 re f\n" % (i % 300, i % 400) for i in range(1200)) * (5_000_000//2//1200)
ob = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>", stream(ops)]
open(out+"/operator-bomb.pdf","wb").write(pdf(ob))
# 5 search: 10 pages sharing one content stream
text = b"BT /F1 10 Tf 20 700 Td (" + b"a"*40 + b"!) Tj ET"
n=10
sp = [b"<< /Type /Catalog /Pages 2 0 R >>", pages(range(n))]
for i in range(n): sp.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (3+n, 4+n))
sp.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
sp.append(stream(text))
open(out+"/search-bomb.pdf","wb").write(pdf(sp))
# 6 tarpit links
links = b" ".join(b"<< /Type /Annot /Subtype /Link /Rect [10 %d 100 %d] /A << /S /URI /URI (http://127.0.0.1:%d/tarpit/%d) >> >>" % (10+20*i, 25+20*i, port, i) for i in range(10))
tp = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [" + links + b"] >>"]
open(out+"/tarpit-links.pdf","wb").write(pdf(tp))
# 7 predictor columns 10^12: xref stream
body = bytearray(b"%PDF-1.5\n")
o1 = len(body); body += b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
o2 = len(body); body += b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
o3 = len(body); body += b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n"
o4 = len(body)
rows = b"".join(bytes([t]) + o.to_bytes(2,"big") + bytes([0]) for t,o in [(0,0),(1,o1),(1,o2),(1,o3),(1,o4)])
d = zlib.compress(rows)
body += b"4 0 obj\n<< /Type /XRef /Size 5 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 1000000000000 >> /Length %d >>\nstream\n" % len(d) + d + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % o4
open(out+"/xref-columns-1e12.pdf","wb").write(bytes(body))
