#!/usr/bin/env bash
# Text extraction benchmark: pdfpipe extract-text against pdftotext and `mutool draw -F txt` on big
# real manuals, one process per file and two processes in parallel (xargs -P2), and pdfpipe with
# --jobs 1 and 2 (one process). Also counts how many words differ from pdftotext's.
#
#   bench/text.sh      fetches the manuals into bench/.cache (as bench/links.sh does) and prints a table.
# Peers: apt-get install poppler-utils mupdf-tools. Each figure is the median of three runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
command -v pdftotext >/dev/null || apt-get install -y -qq poppler-utils >/dev/null
command -v mutool >/dev/null || apt-get install -y -qq mupdf-tools >/dev/null
pipeline=$(mktemp)
echo '{"stages": [{"use": "extract-text", "with": {"format": "txt"}}]}' > "$pipeline"
out=$(mktemp -d)

pages=0
for f in "${files[@]}"; do pages=$((pages + $(pdfinfo "$f" | awk '/^Pages:/ {print $2}'))); done

p1=$(median "$pdfpipe" run "$pipeline" "${files[@]}" --out "$out/p" --jobs 1 --quiet --fail-on never)
p2=$(median "$pdfpipe" run "$pipeline" "${files[@]}" --out "$out/p" --jobs 2 --quiet --fail-on never)
pdftotext_one='pdftotext "$1" "$0/$(basename "$1").txt"'
mutool_one='mutool draw -q -F txt -o "$0/$(basename "$1").m.txt" "$1"'
t1=$(one_at_a_time "$pdftotext_one")
t2=$(two_at_a_time "$pdftotext_one")
m1=$(one_at_a_time "$mutool_one")
m2=$(two_at_a_time "$mutool_one")

rate() { echo "$pages / $1" | bc -l; }
printf '%d pages in %d manuals\n' "$pages" "${#files[@]}"
printf '%-28s %8s %10s %14s\n' tool seconds pages/s "pdfpipe ratio"
printf '%-28s %8.2f %10.0f %14s\n' "pdfpipe --jobs 1" "$p1" "$(rate "$p1")" "-"
printf '%-28s %8.2f %10.0f %14s\n' "pdfpipe --jobs 2" "$p2" "$(rate "$p2")" "-"
printf '%-28s %8.2f %10.0f %13.2fx\n' "pdftotext, one at a time" "$t1" "$(rate "$t1")" "$(echo "$t1 / $p2" | bc -l)"
printf '%-28s %8.2f %10.0f %13.2fx\n' "pdftotext, xargs -P2" "$t2" "$(rate "$t2")" "$(echo "$t2 / $p2" | bc -l)"
printf '%-28s %8.2f %10.0f %13.2fx\n' "mutool draw -F txt, one" "$m1" "$(rate "$m1")" "$(echo "$m1 / $p2" | bc -l)"
printf '%-28s %8.2f %10.0f %13.2fx\n' "mutool draw -F txt, -P2" "$m2" "$(rate "$m2")" "$(echo "$m2 / $p2" | bc -l)"
echo "(ratios: the peer's time over pdfpipe --jobs 2)"

echo "words that differ from pdftotext's:"
"$pdfpipe" run "$pipeline" "${files[@]}" --out "$out/p" --quiet --fail-on never
for f in "${files[@]}"; do
  b=$(basename "$f" .pdf)
  pdftotext "$f" "$out/$b.pt.txt"
  tr -s ' \n\f\t' '\n' < "$out/p/text/$b.txt" > "$out/$b.ours.w"
  tr -s ' \n\f\t' '\n' < "$out/$b.pt.txt" > "$out/$b.pt.w"
  printf '  %-14s %8d of %8d\n' "$b.pdf" "$(diff "$out/$b.ours.w" "$out/$b.pt.w" | grep -c '^>' || true)" "$(wc -l < "$out/$b.pt.w")"
done
rm -rf "$out" "$pipeline"
