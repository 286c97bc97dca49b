#!/usr/bin/env python3
"""PyMuPDF peer of the text benchmark: every page's text of PDF, pages separated by form feeds, to
OUT. Usage: pymupdf_text.py PDF OUT."""
import sys

import pymupdf

doc = pymupdf.open(sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write("\f".join(page.get_text() for page in doc))
