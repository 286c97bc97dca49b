#!/usr/bin/env bash
# Scale-out on a real Slurm: the same batch as 1, 2, 4 and 8 array tasks of the shipped
# contrib/slurm/pdfpipe-array.sbatch (one CPU each, at most as many at once as the node has CPUs),
# then contrib/slurm/pdfpipe-merge.sbatch after it, beside a one-machine run (--jobs = CPUs).
# Prints, per task count: the wall time from submission to the merge's end, the merge's own time,
# the tasks' CPU time added up, the largest peak RSS of a task and the merge's, and whether the
# merged report is the one-machine run's (documents, findings, summary).
#
#   bench/slurm-scale.sh [DOCUMENTS] [TASKS...]    (as root; default 2000 documents, 1 2 4 8 tasks)
#
# The batch: the real-world corpus of bench/realworld.sh (Debian's manuals, PyPI test files,
# generated ones) that opens cleanly, repeated as hard links up to DOCUMENTS; the link audit with
# its inventory, offline. A single node shows the price of splitting (scheduling, one process per
# task, the merge), not the gain: that needs nodes (see docs/scale-out.md).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
n=${1:-2000}
shift || true
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(1 2 4 8)
# shellcheck source=bench/base52.sh
. bench/base52.sh
exe=$pdfpipe

work=$(mktemp -d /tmp/pdfpipe-slurm-scale-XXXXXX)
# shellcheck source=scripts/slurm-local.sh
. scripts/slurm-local.sh
slurm_up "$work" pdfpipe-bench

batch=$work/batch
for ((i = 0; i < n; i++)); do
  d="$batch/docs/$((i / ${#base[@]}))"
  mkdir -p "$d"
  ln "${base[$((i % ${#base[@]}))]}" "$d/$i.pdf" 2>/dev/null || cp "${base[$((i % ${#base[@]}))]}" "$d/$i.pdf"
done
cat >"$batch/pipeline.json" <<'JSON'
{ "version": 1, "name": "slurm-scale",
  "stages": [ { "use": "resolve-destinations" }, { "use": "validate-links", "with": { "inventory": true } } ],
  "report": { "formats": ["json"], "failOn": "error" } }
JSON
# pdfpipe as the job files call it, with its peak RSS (KB) and CPU seconds appended to a log.
cat >"$work/bin/pdfpipe" <<SH
#!/bin/sh
exec /usr/bin/time -a -o "$work/usage.log" -f "\$1 %M %U %S" "$exe" "\$@"
SH
chmod +x "$work/bin/pdfpipe"
export PATH="$work/bin:$PATH"
cd "$batch"

cpus=$(nproc)
now() { date +%s.%N; }
s=$(now)
single=0
/usr/bin/time -o "$work/single.log" -f "%M" "$exe" run pipeline.json docs --offline --jobs "$cpus" --out single --quiet 2>/dev/null || single=$?
single_time=$(echo "$(now) - $s" | bc -l)
printf 'batch: %d documents (%d distinct PDFs), %d CPUs; one machine (--jobs %d): %.1f s, %d MB, exit %d\n' \
  "$n" "${#base[@]}" "$cpus" "$cpus" "$single_time" "$(($(tail -1 "$work/single.log") / 1024))" "$single"

summary() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for d in r["documents"]:
    print(d["path"], d["status"], len(d["findings"]), sorted(f["rule"] for f in d["findings"]))
print(json.dumps(r["summary"], sort_keys=True))
PY
}
printf '\n| tasks | wall | ratio to one machine | merge | CPU (tasks) | peak RSS, task | peak RSS, merge | same report |\n|---:|---:|---:|---:|---:|---:|---:|---|\n'
for k in "${counts[@]}"; do
  rm -rf shards audit "$work/usage.log"
  s=$(now)
  array=$(PDFPIPE_SHARDS_DIR=shards sbatch --parsable --chdir="$batch" --export=ALL --array="0-$((k - 1))%$cpus" \
    --output=/dev/null "$repo/contrib/slurm/pdfpipe-array.sbatch" pipeline.json docs --offline)
  merge=$(PDFPIPE_SHARDS_DIR=shards PDFPIPE_MERGED=audit sbatch --parsable --chdir="$batch" --export=ALL \
    --output=/dev/null --dependency="afterany:$array" "$repo/contrib/slurm/pdfpipe-merge.sbatch")
  state=$(slurm_wait "$merge")
  wall=$(echo "$(now) - $s" | bc -l)
  code=$(slurm_exit_code "$merge")
  # The merge's time: its start and end as Slurm has them (whole seconds) are too coarse; the
  # usage log has its CPU, and the merge alone is timed again here on the same shards.
  m0=$(now)
  "$exe" merge shards/shard-*/report.json --out audit-again --quiet >/dev/null 2>&1 || true
  merge_time=$(echo "$(now) - $m0" | bc -l)
  task_rss=$(awk '$1 == "run" { if ($2 > m) m = $2 } END { print int(m / 1024) }' "$work/usage.log")
  merge_rss=$(awk '$1 == "merge" { if ($2 > m) m = $2 } END { print int(m / 1024) }' "$work/usage.log")
  cpu=$(awk '$1 == "run" { t += $3 + $4 } END { printf "%.1f", t }' "$work/usage.log")
  same=no
  if [ "$code" = "$single" ] && diff -q <(summary single/report.json) <(summary audit/report.json) >/dev/null; then same=yes; fi
  printf '| %d | %.1f s | %.2f | %.1f s | %s s | %d MB | %d MB | %s (array %s, merge %s: %s, exit %s) |\n' \
    "$k" "$wall" "$(echo "$wall / $single_time" | bc -l)" "$merge_time" "$cpu" "$task_rss" "$merge_rss" "$same" \
    "$array" "$merge" "$state" "$code"
  rm -rf audit-again
done
