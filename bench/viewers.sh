#!/usr/bin/env bash
# Where viewers land on a destination below the bottom of its page (#63, 6): Chrome's PDF viewer
# (a headless Chromium driven through its DevTools protocol, the landing read from a screenshot),
# MuPDF (PyMuPDF) and PDFium (pypdfium2) on a generated file; see bench/viewers.py.
#
#   bash bench/viewers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cache=bench/.cache
command -v chromium >/dev/null || apt-get install -y -qq chromium >/dev/null
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import websocket, fitz, pypdfium2, PIL" 2>/dev/null ||
    "$cache/venv/bin/pip" install -q websocket-client pymupdf pypdfium2 pillow
work=$(mktemp -d)
chromium --headless=new --no-sandbox --disable-gpu --window-size=800,900 --user-data-dir="$work/profile" \
    --remote-debugging-port=9333 --remote-allow-origins='*' about:blank >/dev/null 2>&1 &
browser=$!
trap 'kill $browser 2>/dev/null; wait $browser 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -s localhost:9333/json/version >/dev/null && break; sleep 0.2; done
"$cache/venv/bin/python" -W ignore bench/viewers.py "$work"
