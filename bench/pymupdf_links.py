#!/usr/bin/env python3
"""The PyMuPDF side of bench/links.sh: every page's get_links(), resolve_names() and get_toc(),
timed without the import. Prints: seconds links names bookmarks."""
import sys
import time

import pymupdf

start = time.perf_counter()
links = names = toc = 0
for path in sys.argv[1:]:
    doc = pymupdf.open(path)
    for page in doc:
        links += len(page.get_links())
    names += len(doc.resolve_names())
    toc += len(doc.get_toc())
    doc.close()
print(f"{time.perf_counter() - start:.3f} {links} {names} {toc}")
