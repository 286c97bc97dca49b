#!/usr/bin/env bash
# Thumbnail benchmark: every page at 200 px width, PNG, pdfpipe's thumbnails stage against
# pdftocairo (poppler-utils), `mutool draw` (mupdf-tools) and pypdfium2 (PyPI, in bench/.cache/venv).
#
# 1. The three manuals of bench/common.sh (text and heavy vector graphics), each peer as one process
#    per file one after another and as `xargs -P2` (the same two cores); pdfpipe with --jobs 1 (the
#    pages of each document on two threads) and --jobs 2. Peak RSS of pdfpipe on pgfmanual.pdf.
# 2. One manual (hyperref.pdf) split for the peers' two processes: in halves, and odd/even pages
#    (which balances the work as pdfpipe's page workers do).
#
#   bench/thumbnails.sh     (fetches the manuals into bench/.cache; installs the peers it lacks)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
command -v pdftocairo >/dev/null || apt-get install -y -qq poppler-utils >/dev/null
command -v mutool >/dev/null || apt-get install -y -qq mupdf-tools >/dev/null
[ -x "$cache/venv/bin/python" ] || python3 -m venv "$cache/venv"
"$cache/venv/bin/python" -c "import pypdfium2, PIL" 2>/dev/null || "$cache/venv/bin/pip" install -q pypdfium2 pillow
py="$cache/venv/bin/python"
out=$(mktemp -d)
pipeline=$(mktemp)
trap 'rm -rf "$out" "$pipeline"' EXIT
echo '{"stages": [{"use": "thumbnails", "with": {"width": 200, "pages": "all", "incremental": false}}]}' > "$pipeline"
npages() { pdfinfo "$1" | awk '/^Pages:/ {print $2}'; }
total=0
for f in "${files[@]}"; do total=$((total + $(npages "$f"))); done

cairo_one='f="$1"; pdftocairo -png -scale-to-x 200 -scale-to-y -1 "$f" "$0/c-$(basename "$f" .pdf)"'
mutool_one='f="$1"; mutool draw -q -w 200 -o "$0/m-$(basename "$f" .pdf)-%d.png" "$f" 2>/dev/null'
pdfium_one="$py bench/pdfium_thumbs.py \"\$1\" \"\$0/p\""

p1=$(median "$pdfpipe" run "$pipeline" "${files[@]}" --out "$out/p1" --jobs 1 --quiet --fail-on never)
p2=$(median "$pdfpipe" run "$pipeline" "${files[@]}" --out "$out/p2" --jobs 2 --quiet --fail-on never)
c1=$(one_at_a_time "$cairo_one")
c2=$(two_at_a_time "$cairo_one")
m1=$(one_at_a_time "$mutool_one")
m2=$(two_at_a_time "$mutool_one")
d1=$(one_at_a_time "$pdfium_one")
d2=$(two_at_a_time "$pdfium_one")
/usr/bin/time -o "$out/rss" -f '%M' "$pdfpipe" run "$pipeline" "$cache/pgfmanual.pdf" --out "$out/r" --jobs 1 --quiet --fail-on never >/dev/null 2>&1 || true
rss=$(tail -1 "$out/rss")

rate() { echo "$1 / $2" | bc -l; }
row() { printf '%-40s %8.2f %9.0f %11.2fx\n' "$1" "$2" "$(rate "$3" "$2")" "$(echo "$2 / $4" | bc -l)"; }
printf '%d pages (%s) at 200 px, PNG\n' "$total" "$(for f in "${files[@]}"; do printf '%s ' "$(basename "$f")"; done)"
printf '%-40s %8s %9s %12s\n' tool seconds pages/s "/ pdfpipe"
row "pdfpipe --jobs 1 (pages on 2 threads)" "$p1" "$total" "$p1"
row "pdfpipe --jobs 2" "$p2" "$total" "$p1"
row "pdftocairo, one file at a time" "$c1" "$total" "$p1"
row "pdftocairo, xargs -P2" "$c2" "$total" "$p1"
row "mutool draw, one file at a time" "$m1" "$total" "$p1"
row "mutool draw, xargs -P2" "$m2" "$total" "$p1"
row "pypdfium2, one file at a time" "$d1" "$total" "$p1"
row "pypdfium2, xargs -P2" "$d2" "$total" "$p1"
printf 'pdfpipe peak RSS on pgfmanual.pdf: %d MB\n\n' "$((rss / 1024))"

f="$cache/hyperref.pdf"
pages=$(npages "$f")
half=$((pages / 2))
odd=$(seq -s, 1 2 "$pages")
even=$(seq -s, 2 2 "$pages")
s1=$(median "$pdfpipe" run "$pipeline" "$f" --out "$out/s" --jobs 1 --quiet --fail-on never)
sm1=$(median mutool draw -q -w 200 -o "$out/m%d.png" "$f")
smh=$(median sh -c "mutool draw -q -w 200 -o $out/ma%d.png $f 1-$half & mutool draw -q -w 200 -o $out/mb%d.png $f $((half + 1))-N; wait")
smo=$(median sh -c "mutool draw -q -w 200 -o $out/ma%d.png $f $odd & mutool draw -q -w 200 -o $out/mb%d.png $f $even; wait")
sd1=$(median "$py" bench/pdfium_thumbs.py "$f" "$out/d")
sdo=$(median sh -c "$py bench/pdfium_thumbs.py $f $out/d 1 $pages 2 & $py bench/pdfium_thumbs.py $f $out/d 2 $pages 2; wait")
printf '%d pages of %s, split for the peers\n' "$pages" "$(basename "$f")"
printf '%-40s %8s %9s %12s\n' tool seconds pages/s "/ pdfpipe"
row "pdfpipe (pages on 2 threads)" "$s1" "$pages" "$s1"
row "mutool draw, one process" "$sm1" "$pages" "$s1"
row "mutool draw, two halves in parallel" "$smh" "$pages" "$s1"
row "mutool draw, odd and even pages" "$smo" "$pages" "$s1"
row "pypdfium2, one process" "$sd1" "$pages" "$s1"
row "pypdfium2, odd and even pages" "$sdo" "$pages" "$s1"
