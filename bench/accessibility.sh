#!/usr/bin/env bash
# Accessible links (#47), on this machine:
#   1. The veraPDF corpus files for the link clauses (Tests/Fixtures/verapdf): each `fail` file's
#      rule found, no `pass` file given it.
#   2. Tagged documents made here as controls: Chromium's print-to-PDF (tagged by default) of an
#      HTML page of 120 links, and LibreOffice's PDF/UA export when soffice is installed: what each
#      producer's output gets.
#   3. Speed: the link audit (resolve-destinations + validate-links, offline, --jobs 2) with
#      `accessibility: "off"` and `"auto"` on the real-world corpus (bench/realworld.sh's Debian
#      manuals, untagged), and on 200 tagged documents (the Chromium control as hard links);
#      `"pdf-ua-1"` (every document checked) beside them. Median of 3 each; the ratio is the
#      check's cost.
#   4. veraPDF, if it can run here (a Java program: neither Debian nor PyPI has it).
#
#   bench/accessibility.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${TMPDIR:-/tmp}/pdfpipe-accessibility
rm -rf "$work" && mkdir -p "$work"
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
swift build -c release --product pdfpipe >/dev/null
pdfpipe=$PWD/.build/release/pdfpipe
for mode in off auto pdf-ua-1; do
  cat > "$work/$mode.json" <<JSON
{ "stages": [ { "use": "resolve-destinations" }, { "use": "validate-links", "with": { "accessibility": "$mode" } } ],
  "report": { "formats": ["json"] } }
JSON
done
median3() { # median3 PIPELINE INPUT: the median wall time of three runs
  local runs=()
  for _ in 1 2 3; do
    rm -rf "$work/out"
    /usr/bin/time -f "%e" -o "$work/time" "$pdfpipe" run "$1" "$2" --out "$work/out" --offline --jobs 2 --quiet --fail-on never >/dev/null 2>&1 || true
    runs+=("$(cat "$work/time")")
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}
rules() { # rules REPORT: "file: rule rule …" per document (access.* only)
  jq -r '.documents[] | "\(.path) [\(.linkSummary.accessibility // "-")]: \([.findings[] | select(.rule | startswith("access.")) | "\(.rule) (\(.severity))"] | group_by(.) | map("\(.[0]) ×\(length)") | join(", "))"' "$1"
}

echo "## 1. the veraPDF corpus files (Tests/Fixtures/verapdf)"
"$pdfpipe" run "$work/auto.json" Tests/Fixtures/verapdf --out "$work/vera" --offline --quiet --fail-on never >/dev/null 2>&1 || true
rules "$work/vera/report.json" | sed 's/^/  /'

echo "## 2. tagged documents made here"
mkdir -p "$work/controls"
python3 - "$work/controls/page.html" <<'PY'
import sys
links = "\n".join(
    f'<p>See <a href="https://example.org/doc{i}">the document number {i}</a>, '
    f'<a href="#s{i % 5}">section {i % 5}</a>, or <a href="https://example.org/raw{i}">https://example.org/raw{i}</a>.</p>'
    for i in range(40))
secs = "\n".join(f'<h2 id="s{i}">Section {i}</h2><p>Text {i}.</p>' for i in range(5))
open(sys.argv[1], "w").write(
    f'<!doctype html><html lang="en"><head><title>Links</title></head><body><h1>Links</h1>{links}{secs}</body></html>')
PY
if command -v chromium >/dev/null; then
  chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" --no-pdf-header-footer \
    --print-to-pdf="$work/controls/chromium.pdf" "file://$work/controls/page.html" >/dev/null 2>&1 || true
fi
if command -v soffice >/dev/null; then
  (cd "$work/controls" && soffice --headless --convert-to \
    'pdf:writer_pdf_Export:{"PDFUACompliance":{"type":"boolean","value":"true"}}' page.html >/dev/null 2>&1 \
    && mv page.pdf libreoffice-pdfua.pdf) || true
else
  echo "  (LibreOffice is not installed: apt-get install libreoffice-writer-nogui adds its PDF/UA export)"
fi
rm -f "$work/controls/page.html"
"$pdfpipe" run "$work/auto.json" "$work/controls" --out "$work/ctl" --offline --quiet --fail-on never >/dev/null 2>&1 || true
rules "$work/ctl/report.json" | sed 's/^/  /'

echo "## 3. speed (median of 3, --jobs 2)"
corpus=bench/.cache/realworld/debian
[ -d "$corpus" ] || bash bench/realworld.sh >/dev/null
mkdir -p "$work/tagged"
for i in $(seq 1 200); do ln -f "$work/controls/chromium.pdf" "$work/tagged/$i.pdf"; done
for what in "$corpus" "$work/tagged"; do
  off=$(median3 "$work/off.json" "$what")
  auto=$(median3 "$work/auto.json" "$what")
  ua1=$(median3 "$work/pdf-ua-1.json" "$what")
  n=$(find "$what" -name '*.pdf' | wc -l)
  echo "$n documents in $what: off $off s, auto $auto s ($(python3 -c "print(f'{$auto/$off:.2f}')")x), pdf-ua-1 $ua1 s ($(python3 -c "print(f'{$ua1/$off:.2f}')")x)"
done

echo "## 4. veraPDF"
if command -v verapdf >/dev/null; then
  echo "  veraPDF found: compare by hand with: verapdf --flavour ua1 $work/tagged/1.pdf"
else
  echo "  veraPDF cannot run here: Java is $(command -v java >/dev/null && echo installed || echo absent), but veraPDF is in neither Debian nor PyPI, and its own site and Maven Central are not reachable from this machine"
fi
rm -rf "$work"
