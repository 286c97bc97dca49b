#!/usr/bin/env bash
# The rendering and text engines side by side on the same 2 cores (#20):
#   A. the first page of every Debian manual of the real-world corpus (bench/realworld.sh fetches
#      it), 200 px wide, PNG: the common bulk-thumbnail case;
#   B. every page of the three manuals of bench/common.sh, 200 px wide, PNG;
#   C. the text of those three manuals;
#   D, E. every page's thumbnail and the text of the five manuals of #62 (2,182 pages);
#   F, G. the same of 600 small real PDFs (bench/common.sh's small_corpus);
#   H. the link audit (offline) of those 600, in documents a second.
# pdfpipe runs with poppler (the default build) and with MuPDF (a build with the MuPDF trait), both
# --jobs 2, with its default (worker processes for pages) and with --no-isolate, whose ratio is the
# cost of isolation; the peers run two at a time (xargs -P2): mutool (mupdf-tools), pdftocairo
# and pdftotext (poppler-utils), pypdfium2 and PyMuPDF (PyPI, in bench/.cache/venv). Medians of
# three runs; each line ends with the tool's time over pdfpipe-with-MuPDF's. Then the peak RSS of
# one page worker on pgfmanual.pdf with either engine.
#   bash bench/engines.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
scripts/setup.sh --test --mupdf >/dev/null
swift build -c release --traits MuPDF --scratch-path .build/mupdf --product pdfpipe >/dev/null
mupdf=.build/mupdf/release/pdfpipe
[ -d "$cache/realworld/debian" ] || bash bench/realworld.sh >/dev/null
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import pypdfium2, PIL, pymupdf" 2>/dev/null || "$cache/venv/bin/pip" install -q pypdfium2 pillow pymupdf
py="$cache/venv/bin/python"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
small_corpus
mapfile -t corpus < <(find "$cache/realworld/debian" -name '*.pdf' | sort)
printf '%s\n' "${corpus[@]}" > "$out/corpus.txt"
pipe() { echo "{\"stages\": [$1], \"report\": {\"formats\": [\"json\"], \"failOn\": \"never\"}}" > "$out/$2.json"; }
for e in poppler mupdf; do
  pipe "{\"use\": \"thumbnails\", \"with\": {\"width\": 200, \"pages\": \"1\", \"incremental\": false, \"engine\": \"$e\"}}" "first-$e"
  pipe "{\"use\": \"thumbnails\", \"with\": {\"width\": 200, \"pages\": \"all\", \"incremental\": false, \"engine\": \"$e\"}}" "all-$e"
  pipe "{\"use\": \"extract-text\", \"with\": {\"engine\": \"$e\"}}" "text-$e"
done
p2() { median sh -c "xargs -P2 -n1 sh -c '$1' $out < $2"; }
printf '%s\n' "${files[@]}" > "$out/manuals.txt"
printf '%s\n' "${five[@]}" > "$out/five.txt"
find "$cache/small" -name '*.pdf' | LC_ALL=C sort > "$out/small.txt"
run() { median "$1" run "$out/$2.json" "${@:3}" --out "$out/r" --jobs 2 --quiet; }
row() { printf '%-44s %8.2f %8.2fx\n' "$1" "$2" "$(echo "$2 / $3" | bc -l)"; }
pages=0
for f in "${files[@]}"; do pages=$((pages + $(pdfinfo "$f" | awk '/^Pages:/ {print $2}'))); done

# One table: pdfpipe with either engine over the files of LIST, then each peer ("label" "command",
# run two at a time over LIST), each time over the MuPDF engine's.
section() {
  local title=$1 kind=$2 list=$3 inputs mu pop
  shift 3
  mapfile -t inputs < "$list"
  pop=$(run "$pdfpipe" "$kind-poppler" "${inputs[@]}")
  mu=$(run "$mupdf" "$kind-mupdf" "${inputs[@]}")
  pop1=$(run "$pdfpipe" "$kind-poppler" "${inputs[@]}" --no-isolate)
  mu1=$(run "$mupdf" "$kind-mupdf" "${inputs[@]}" --no-isolate)
  echo "$title"
  row "pdfpipe engine mupdf, --jobs 2" "$mu" "$mu"
  row "pdfpipe engine mupdf, --jobs 2 --no-isolate" "$mu1" "$mu"
  row "pdfpipe engine poppler, --jobs 2" "$pop" "$mu"
  row "pdfpipe engine poppler, --jobs 2 --no-isolate" "$pop1" "$mu"
  while [ $# -gt 0 ]; do
    row "$1" "$(p2 "$2" "$list")" "$mu"
    shift 2
  done
  printf 'cost of isolation (default / --no-isolate): poppler %.2fx, mupdf %.2fx\n\n' \
    "$(echo "$pop / $pop1" | bc -l)" "$(echo "$mu / $mu1" | bc -l)"
}
mutool_all='mutool draw -q -w 200 -o "$0/m-$(basename "$1" .pdf)-%d.png" "$1" 2>/dev/null'
cairo_all='pdftocairo -png -scale-to-x 200 -scale-to-y -1 "$1" "$0/c-$(basename "$1" .pdf)" 2>/dev/null'
pdfium_all="$py bench/pdfium_thumbs.py \"\$1\" \"\$0/p\""
mutool_text='mutool draw -q -F txt -o "$0/$(basename "$1" .pdf).txt" "$1" 2>/dev/null'
pdftotext_text='pdftotext "$1" "$0/$(basename "$1" .pdf).txt" 2>/dev/null'
pymupdf_text="$py bench/pymupdf_text.py \"\$1\" \"\$0/pm-\$(basename \"\$1\" .pdf).txt\""

section "A. first page of ${#corpus[@]} real documents, 200 px PNG        seconds   / mupdf engine" \
  first "$out/corpus.txt" \
  "mutool draw, xargs -P2" 'mutool draw -q -w 200 -o "$0/m-$(echo "$1" | md5sum | cut -c1-12).png" "$1" 1 2>/dev/null' \
  "pdftocairo, xargs -P2" 'pdftocairo -png -singlefile -f 1 -l 1 -scale-to-x 200 -scale-to-y -1 "$1" "$0/c-$(echo "$1" | md5sum | cut -c1-12)" 2>/dev/null' \
  "pypdfium2, xargs -P2" "$py bench/pdfium_thumbs.py \"\$1\" \"\$0/p\" 1 1"

section "B. every page of the three manuals ($pages pages), 200 px PNG  seconds   / mupdf engine" \
  all "$out/manuals.txt" \
  "mutool draw, xargs -P2" "$mutool_all" "pypdfium2, xargs -P2" "$pdfium_all"

section "C. text of the three manuals                                seconds   / mupdf engine" \
  text "$out/manuals.txt" \
  "mutool draw -F txt, xargs -P2" "$mutool_text" "pdftotext, xargs -P2" "$pdftotext_text" \
  "PyMuPDF get_text, xargs -P2" "$pymupdf_text"

section "D. every page of the five manuals of #62, 200 px PNG        seconds   / mupdf engine" \
  all "$out/five.txt" \
  "mutool draw, xargs -P2" "$mutool_all" "pdftocairo, xargs -P2" "$cairo_all" "pypdfium2, xargs -P2" "$pdfium_all"

section "E. text of the five manuals                                 seconds   / mupdf engine" \
  text "$out/five.txt" \
  "mutool draw -F txt, xargs -P2" "$mutool_text" "pdftotext, xargs -P2" "$pdftotext_text" \
  "PyMuPDF get_text, xargs -P2" "$pymupdf_text"

section "F. every page of 600 small PDFs, 200 px PNG                 seconds   / mupdf engine" \
  all "$out/small.txt" \
  "mutool draw, xargs -P2" "$mutool_all" "pdftocairo, xargs -P2" "$cairo_all" "pypdfium2, xargs -P2" "$pdfium_all"

section "G. text of 600 small PDFs                                   seconds   / mupdf engine" \
  text "$out/small.txt" \
  "mutool draw -F txt, xargs -P2" "$mutool_text" "pdftotext, xargs -P2" "$pdftotext_text" \
  "PyMuPDF get_text, xargs -P2" "$pymupdf_text"

audit=$(median "$pdfpipe" run link-audit "$cache/small" --offline --out "$out/audit" --jobs 2 --quiet --fail-on never)
/usr/bin/time -o "$out/rss" -f '%M' "$pdfpipe" run link-audit "$cache/small" --offline --out "$out/audit" --jobs 2 --quiet --fail-on never >/dev/null 2>&1 || true
printf 'H. link audit (offline) of 600 small PDFs: %.2f s, %.0f documents/s, peak RSS %d MB\n\n' \
  "$audit" "$(echo "600 / $audit" | bc -l)" "$(($(tail -1 "$out/rss") / 1024))"

for e in poppler mupdf; do
  bin=$pdfpipe; [ "$e" = mupdf ] && bin=$mupdf
  pipe "{\"use\": \"thumbnails\", \"with\": {\"width\": 200, \"pages\": \"all\", \"incremental\": false, \"engine\": \"$e\", \"pageWorkers\": 1}}" "rss-$e"
  /usr/bin/time -o "$out/rss" -f '%M' "$bin" run "$out/rss-$e.json" "$cache/pgfmanual.pdf" --out "$out/r" --jobs 1 --quiet >/dev/null 2>&1 || true
  printf 'peak RSS, one worker, every page of pgfmanual.pdf, %s: %d MB\n' "$e" "$(($(tail -1 "$out/rss") / 1024))"
done
