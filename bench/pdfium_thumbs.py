#!/usr/bin/env python3
"""pypdfium2 peer of the thumbnail benchmark: every page of PDF (or pages FIRST..LAST, or every
STEP-th page from FIRST) rendered STEP by STEP at 200 px width and saved as PNG (Pillow, level 1 as
pdfpipe's default). Usage: pdfium_thumbs.py PDF OUTDIR [FIRST [LAST [STEP]]] (pages from 1)."""
import os
import sys

import pypdfium2 as pdfium

path, out = sys.argv[1], sys.argv[2]
doc = pdfium.PdfDocument(path)
first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
last = int(sys.argv[4]) if len(sys.argv) > 4 else len(doc)
step = int(sys.argv[5]) if len(sys.argv) > 5 else 1
os.makedirs(out, exist_ok=True)
stem = os.path.splitext(os.path.basename(path))[0]
for n in range(first, last + 1, step):
    page = doc[n - 1]
    width = page.get_width()
    image = page.render(scale=200 / width).to_pil()
    image.save(f"{out}/{stem}-{n}.png", compress_level=1)
