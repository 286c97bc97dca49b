#!/usr/bin/env bash
# Right-to-left word recall against the text that was typeset (#63): the texts of bench/rtl-truth
# set in DejaVu Sans by Chromium (print to PDF), Typst and WeasyPrint (both from PyPI, in
# bench/.cache/venv), then read by pdfpipe's extract-text (poppler engine), pdftotext and
# `mutool draw -F txt`. Prints each file's recall and each producer's, per tool (words of letters,
# marks and digits, NFKC, zero-width joiners aside: bench/rtl_truth.py).
#
#   bash bench/rtl-truth.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cache=bench/.cache
command -v chromium >/dev/null || apt-get install -y -qq chromium >/dev/null
command -v pdftotext >/dev/null || apt-get install -y -qq poppler-utils >/dev/null
command -v mutool >/dev/null || apt-get install -y -qq mupdf-tools >/dev/null
fc-list | grep -q DejaVuSans.ttf || apt-get install -y -qq fonts-dejavu-core >/dev/null
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import typst, weasyprint" 2>/dev/null || "$cache/venv/bin/pip" install -q typst weasyprint
swift build -c release --product pdfpipe >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pdf"
"$cache/venv/bin/python" bench/rtl_truth.py make bench/rtl-truth "$work"
for html in "$work"/*.html; do
    n=$(basename "$html" .html)
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
        --print-to-pdf="$work/pdf/chromium-$n.pdf" "file://$html" >/dev/null 2>&1
done
cat >"$work/p.json" <<JSON
{ "stages": [ { "use": "extract-text", "with": { "format": "txt" } } ], "report": { "formats": ["json"], "failOn": "never" } }
JSON
.build/release/pdfpipe run "$work/p.json" "$work/pdf" --out "$work/run" --jobs 2 --quiet
python3 bench/rtl_truth.py measure bench/rtl-truth "$work/pdf" "$work/run/text"
