#!/usr/bin/env bash
# Scale: time and peak memory of the link audit as the batch grows, with and without the link
# inventory, and of merging the shards of the biggest batch.
#
#   bench/scale.sh [SIZES...]        (default: 50 500 2000 20000)
#
# The batch is the first 52 PDFs of the real-world corpus (bench/realworld.sh builds it; Debian's
# TeX manuals, pypdf/pikepdf test files and generated ones) that open cleanly, repeated as hard
# links in numbered folders up to each size. pdfpipe runs `resolve-destinations` + `validate-links`
# offline with --jobs 2; peak RSS from /usr/bin/time. Memory should stay flat as the batch grows:
# results go to results.jsonl as documents finish, and every report is written from that file.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(50 500 2000 20000)
# shellcheck source=bench/base52.sh
. bench/base52.sh
work=${TMPDIR:-/tmp}/pdfpipe-scale
rm -rf "$work" && mkdir -p "$work"
echo "source: ${#base[@]} PDFs, $(du -ch "${base[@]}" | tail -1 | cut -f1)"

for with in true false; do
  cat > "$work/inventory-$with.json" <<JSON
{ "stages": [ { "use": "resolve-destinations" }, { "use": "validate-links", "with": { "inventory": $with } } ],
  "report": { "formats": ["json", "junit", "sarif", "markdown", "html"] } }
JSON
done

printf '\n| documents | inventory | time | peak RSS | report.json | results.jsonl |\n|---:|---|---:|---:|---:|---:|\n'
for n in "${sizes[@]}"; do
  batch="$work/batch-$n"
  mkdir -p "$batch"
  for ((i = 0; i < n; i++)); do
    d="$batch/$((i / ${#base[@]}))"
    mkdir -p "$d"
    ln -f "${base[$((i % ${#base[@]}))]}" "$d/$i.pdf"
  done
  for with in true false; do
    out="$work/out-$n-$with"
    /usr/bin/time -f "%e %M" -o "$work/time" "$pdfpipe" run "$work/inventory-$with.json" "$batch" --out "$out" \
      --offline --jobs 2 --quiet --fail-on never >/dev/null 2>&1 || true
    read -r secs kb < "$work/time"
    printf '| %s | %s | %s s | %s MB | %s | %s |\n' "$n" "$with" "$secs" "$((kb / 1024))" \
      "$(du -h "$out/report.json" | cut -f1)" "$(du -h "$out/results.jsonl" | cut -f1)"
    [ "$with" = false ] && rm -rf "$out"
  done
  rm -rf "$batch"
done

# Merging: a batch of MERGE_SIZE documents (default 2,000) split into 10 and into 100 shards (with
# the inventory), then merged: memory should not depend on the number of shards.
n=${MERGE_SIZE:-2000}
batch="$work/batch-merge"
mkdir -p "$batch"
for ((i = 0; i < n; i++)); do d="$batch/$((i / ${#base[@]}))"; mkdir -p "$d"; ln -f "${base[$((i % ${#base[@]}))]}" "$d/$i.pdf"; done
echo
for shards in 10 100; do
  rm -rf "$work"/shard-*
  for k in $(seq 1 "$shards"); do
    "$pdfpipe" run "$work/inventory-true.json" "$batch" --shard "$k/$shards" --out "$work/shard-$k" --offline --jobs 2 --quiet --fail-on never --format json >/dev/null 2>&1 || true
  done
  /usr/bin/time -f "%e %M" -o "$work/time" "$pdfpipe" merge "$work"/shard-*/report.json --out "$work/merged" --quiet --fail-on never >/dev/null 2>&1 || true
  read -r secs kb < "$work/time"
  printf 'merge of %s shards of %s documents (with the inventory): %s s, %s MB peak, report.json %s\n' "$shards" "$n" "$secs" "$((kb / 1024))" "$(du -h "$work/merged/report.json" | cut -f1)"
done
rm -rf "$work"
