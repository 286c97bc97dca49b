#!/usr/bin/env bash
# Fidelity of thumbnails and text (#34, 7): pdfpipe over the real-world corpus of bench/realworld.sh
# — first pages 200 px wide and the text of every document — beside the engine's own tools
# (poppler: pdftocairo -cropbox, pdftotext; MuPDF: mutool draw) and PDFium (pypdfium2).
# bench/fidelity.py prints the distributions and names every document whose text is below 0.95
# similar to the tool's.
#
# Both print the pages pdfpipe read as empty where the tool read text (target 0) and the word
# recall on right-to-left scripts (target 0.95 of the tool's words, #63): over the tool's words as
# they are, over words of letters (punctuation aside), and over the documents without vowel signs
# (where pdftotext cuts words at their marks, its words are no reference: bench/rtl-truth.sh
# measures against the typeset text instead).
#
#   bash bench/fidelity.sh           # the poppler engine
#   bash bench/fidelity.sh mupdf     # the MuPDF engine (a build with the MuPDF trait)
#   bash bench/fidelity.sh rtl       # the poppler engine's text on texlive-lang-arabic's 77 PDFs
#                                    # (Arabic, Persian, Kurdish, Urdu: XeTeX, LuaTeX, arabtex)
set -euo pipefail
cd "$(dirname "$0")/.."
cache=bench/.cache
corpus="$cache/realworld"
if [ "${1:-}" = rtl ]; then
    corpus="$cache/rtl"
    if [ ! -d "$corpus" ]; then
        work=$(mktemp -d)
        (cd "$work" && apt-get download texlive-lang-arabic >/dev/null 2>&1 && dpkg-deb -x texlive-lang-arabic_*.deb x)
        mkdir -p "$corpus"
        find "$work/x" -name '*.pdf' -exec cp {} "$corpus/" \;
        rm -rf "$work"
    fi
    set -- poppler
fi
[ "$corpus" != "$cache/realworld" ] || [ -d "$cache/realworld/debian" ] || bash bench/realworld.sh >/dev/null
command -v pdftocairo >/dev/null || apt-get install -y -qq poppler-utils >/dev/null
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import pypdfium2, PIL" 2>/dev/null || "$cache/venv/bin/pip" install -q pypdfium2 pillow
engine=${1:-poppler}
if [ "$engine" = mupdf ]; then
    command -v mutool >/dev/null || bash scripts/setup.sh --mupdf >/dev/null
    swift build -c release --product pdfpipe --traits MuPDF --scratch-path .build/mupdf-release >/dev/null
    pdfpipe=.build/mupdf-release/release/pdfpipe
else
    swift build -c release --product pdfpipe >/dev/null
    pdfpipe=.build/release/pdfpipe
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat >"$out/p.json" <<JSON
{ "stages": [ { "use": "thumbnails", "with": { "width": 200, "pages": "1", "incremental": false, "engine": "$engine" } },
              { "use": "extract-text", "with": { "format": "txt", "engine": "$engine" } } ],
  "report": { "formats": ["json"], "failOn": "never" } }
JSON
"$pdfpipe" run "$out/p.json" "$corpus" --out "$out/run" --jobs 2 --quiet
"$cache/venv/bin/python" bench/fidelity.py "$out/run/report.json" "$out/run" "$corpus" "$engine"
