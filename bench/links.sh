#!/usr/bin/env bash
# Link-audit benchmark: pdfpipe against PyMuPDF and `pdfinfo -dests` on big real manuals.
#
#   bench/links.sh            fetches the manuals (Debian's texlive -doc packages) into bench/.cache,
#                             builds pdfpipe in release mode, and prints a table with ratios.
# Peers: pip install pymupdf; apt-get install poppler-utils. Each command runs 3 times; the median
# is shown. Peak memory is the maximum resident set size from /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

python3 -c 'import pymupdf' 2>/dev/null || pip install -q pymupdf
command -v pdfinfo >/dev/null || apt-get install -y -qq poppler-utils >/dev/null

# median of three runs: prints "seconds peakKB"
measure() {
  local out=() i
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o /tmp/bench-time "$@" >/dev/null 2>&1 || true
    out+=("$(cat /tmp/bench-time)")
  done
  printf '%s\n' "${out[@]}" | sort -n | sed -n 2p
}
pages() { pdfinfo "$1" | awk '/^Pages:/ {print $2}'; }

printf '%-14s %6s | %-22s | %-22s | %-22s | %s\n' file pages "pdfpipe s (MB)" "PyMuPDF s" "pdfinfo -dests s (MB)" "ratios: PyMuPDF/pdfpipe, pdfinfo/pdfpipe"
total_p=0; total_m=0; total_i=0; total_pages=0
for f in "${files[@]}"; do
  n=$(pages "$f")
  read -r ps pm < <(measure "$pdfpipe" run pipelines/link-audit.json "$f" --out /tmp/bench-out --jobs 1 --quiet --fail-on never)
  ms=$(python3 bench/pymupdf_links.py "$f" | awk '{print $1}')
  read -r is im < <(measure pdfinfo -dests "$f")
  printf '%-14s %6s | %8.2f (%5.0f MB)      | %8.2f               | %8.2f (%4.0f MB)      | %5.1fx  %5.2fx\n' \
    "$(basename "$f")" "$n" "$ps" "$((pm / 1024))" "$ms" "$is" "$((im / 1024))" \
    "$(echo "$ms / $ps" | bc -l)" "$(echo "$is / $ps" | bc -l)"
  total_p=$(echo "$total_p + $ps" | bc -l); total_m=$(echo "$total_m + $ms" | bc -l); total_i=$(echo "$total_i + $is" | bc -l)
  total_pages=$((total_pages + n))
done
printf '%-14s %6s | %8.2f  %6.0f pages/s  | %8.2f               | %8.2f                | %5.1fx  %5.2fx\n' total "$total_pages" \
  "$total_p" "$(echo "$total_pages / $total_p" | bc -l)" "$total_m" "$total_i" "$(echo "$total_m / $total_p" | bc -l)" "$(echo "$total_i / $total_p" | bc -l)"
read -r p2 _ < <(measure "$pdfpipe" run pipelines/link-audit.json "${files[@]}" --out /tmp/bench-out --jobs 2 --quiet --fail-on never)
read -r p1 _ < <(measure "$pdfpipe" run pipelines/link-audit.json "${files[@]}" --out /tmp/bench-out --jobs 1 --quiet --fail-on never)
printf 'all three in one run: --jobs 1 %.2f s, --jobs 2 %.2f s (%.2fx)\n' "$p1" "$p2" "$(echo "$p1 / $p2" | bc -l)"
# A balanced batch for the concurrency figure: each manual twice (three documents cannot keep two
# workers equally busy).
mkdir -p /tmp/bench-batch
for f in "${files[@]}"; do cp "$f" /tmp/bench-batch/a-"$(basename "$f")"; cp "$f" /tmp/bench-batch/b-"$(basename "$f")"; done
read -r b2 _ < <(measure "$pdfpipe" run pipelines/link-audit.json /tmp/bench-batch --out /tmp/bench-out --jobs 2 --quiet --fail-on never)
read -r b1 _ < <(measure "$pdfpipe" run pipelines/link-audit.json /tmp/bench-batch --out /tmp/bench-out --jobs 1 --quiet --fail-on never)
printf 'six documents (each manual twice): --jobs 1 %.2f s, --jobs 2 %.2f s (%.2fx)\n' "$b1" "$b2" "$(echo "$b1 / $b2" | bc -l)"
