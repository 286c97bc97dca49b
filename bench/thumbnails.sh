#!/usr/bin/env bash
# Thumbnail benchmark: every page of hyperref.pdf (516 pages, text and vector graphics) at 200 px
# width, PNG: pdfpipe's thumbnails stage against pdftocairo and `mutool draw`, one process at a time
# and split in two halves run in parallel (the same two cores).
#   bench/thumbnails.sh     (fetches the manual into bench/.cache; apt-get install poppler-utils mupdf-tools)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
command -v pdftocairo >/dev/null || apt-get install -y -qq poppler-utils >/dev/null
command -v mutool >/dev/null || apt-get install -y -qq mupdf-tools >/dev/null
f="$cache/hyperref.pdf"
pages=$(pdfinfo "$f" | awk '/^Pages:/ {print $2}')
half=$((pages / 2))
out=$(mktemp -d)
pipeline=$(mktemp)
echo '{"stages": [{"use": "thumbnails", "with": {"width": 200, "pages": "all", "incremental": false}}]}' > "$pipeline"

p1=$(median "$pdfpipe" run "$pipeline" "$f" --out "$out/p" --jobs 1 --quiet --fail-on never)
c1=$(median pdftocairo -png -scale-to-x 200 -scale-to-y -1 "$f" "$out/c")
c2=$(median sh -c "pdftocairo -png -scale-to-x 200 -scale-to-y -1 -l $half $f $out/c1 & pdftocairo -png -scale-to-x 200 -scale-to-y -1 -f $((half + 1)) $f $out/c2; wait")
m1=$(median mutool draw -q -w 200 -o "$out/m%d.png" "$f")
m2=$(median sh -c "mutool draw -q -w 200 -o $out/ma%d.png $f 1-$half & mutool draw -q -w 200 -o $out/mb%d.png $f $((half + 1))-N; wait")
rate() { echo "$pages / $1" | bc -l; }
printf '%d pages of %s at 200 px, PNG\n' "$pages" "$(basename "$f")"
printf '%-34s %8s %9s %12s\n' tool seconds pages/s "vs pdfpipe"
printf '%-34s %8.2f %9.0f %12s\n' "pdfpipe (pages on 2 workers)" "$p1" "$(rate "$p1")" "-"
printf '%-34s %8.2f %9.0f %11.2fx\n' "pdftocairo" "$c1" "$(rate "$c1")" "$(echo "$c1 / $p1" | bc -l)"
printf '%-34s %8.2f %9.0f %11.2fx\n' "pdftocairo, two halves in parallel" "$c2" "$(rate "$c2")" "$(echo "$c2 / $p1" | bc -l)"
printf '%-34s %8.2f %9.0f %11.2fx\n' "mutool draw" "$m1" "$(rate "$m1")" "$(echo "$m1 / $p1" | bc -l)"
printf '%-34s %8.2f %9.0f %11.2fx\n' "mutool draw, two halves in parallel" "$m2" "$(rate "$m2")" "$(echo "$m2 / $p1" | bc -l)"
rm -rf "$out" "$pipeline"
