#!/usr/bin/env bash
# End to end on a real Slurm: brings up a single-node cluster from Debian's packages (munge and
# slurm-wlm: munged, slurmctld and slurmd on localhost, with a generated key and slurm.conf, all in
# a temporary folder), submits contrib/slurm/pdfpipe-array.sbatch (8 tasks, at most 2 at a time)
# over a corpus and contrib/slurm/pdfpipe-merge.sbatch after it (--dependency=afterany: it runs whatever the tasks did, and names the shards to rerun), requeues one
# task while it runs (it resumes its folder), and compares the merged report with a one-machine
# run of the same batch: the same documents, the same findings, the same exit code. Stops every
# daemon it started, by process id. Prints the job ids; exits non-zero on any difference.
#
#   bash scripts/slurm-e2e.sh [PDFPIPE]     (as root; PDFPIPE: default .build/debug, .build/release, then PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# The build to test: the one named, else a debug or release build of this clone, else pdfpipe on PATH.
exe=${1:-}
if [ -z "$exe" ]; then
  for candidate in .build/debug/pdfpipe .build/release/pdfpipe "$(command -v pdfpipe || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && { exe=$candidate; break; }
  done
fi
[ -n "$exe" ] && [ -x "$exe" ] || {
  echo "slurm-e2e: no pdfpipe: not at .build/debug or .build/release, not on PATH (swift build, or pass its path)" >&2
  exit 2
}
exe=$(readlink -f "$exe")
missing=""
for tool in sbatch squeue scontrol slurmctld slurmd munged; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing="$missing $tool"
done
[ -z "$missing" ] || {
  echo "slurm-e2e: missing:$missing (apt-get install slurm-wlm munge)" >&2
  exit 2
}
[ "$(id -u)" = 0 ] || { echo "slurm-e2e: run it as root (it starts munged, slurmctld and slurmd)" >&2; exit 2; }
echo "slurm-e2e: testing $exe" >&2
work=$(mktemp -d /tmp/pdfpipe-slurm-XXXXXX)
# shellcheck source=scripts/slurm-local.sh
. scripts/slurm-local.sh
slurm_up "$work" pdfpipe-e2e

# The batch: the samples, four times over, with thumbnails so that a task runs long enough to be
# requeued while it works.
mkdir -p "$work/batch/docs"
for k in 1 2 3 4; do mkdir -p "$work/batch/docs/copy$k" && cp samples/*.pdf "$work/batch/docs/copy$k/"; done
cat > "$work/batch/pipeline.json" <<'JSON'
{"version": 1, "name": "slurm-e2e",
 "stages": [{"use": "resolve-destinations"}, {"use": "validate-links"},
            {"use": "thumbnails", "with": {"width": 600, "pages": "all", "incremental": false}}],
 "report": {"failOn": "error"}}
JSON
ln -s "$exe" "$work/bin/pdfpipe"
export PATH="$work/bin:$PATH"
cd "$work/batch"

single=0
pdfpipe run pipeline.json docs --offline --out single --quiet || single=$?

array=$(sbatch --parsable --chdir="$work/batch" --export=ALL "$repo/contrib/slurm/pdfpipe-array.sbatch" pipeline.json docs --offline)
merge=$(sbatch --parsable --chdir="$work/batch" --export=ALL --dependency="afterany:$array" "$repo/contrib/slurm/pdfpipe-merge.sbatch")
echo "slurm-e2e: array job $array (8 tasks, at most 2 at a time), merge job $merge"

# Requeue task 3 while it runs: it is stopped and started again, and resumes its folder.
requeued=no
for _ in $(seq 600); do
  state=$(squeue -h -j "${array}_3" -o %T 2>/dev/null || true)
  if [ "$state" = RUNNING ]; then
    sleep 0.3
    scontrol requeue "${array}_3" && requeued=yes
    # Slurm holds a requeued job back for a while (its begin time moves on): release it now.
    for _ in $(seq 50); do
      scontrol update JobId="${array}_3" BeginTime=now 2>/dev/null && break
      sleep 0.1
    done
    break
  fi
  [ -f "shards/shard-3/report.json" ] && break
  sleep 0.1
done
echo "slurm-e2e: task 3 requeued while running: $requeued"

state=$(slurm_wait "$merge")
merged_code=$(slurm_exit_code "$merge")
echo "slurm-e2e: merge job $state, exit code $merged_code; one machine: exit code $single"

status=0
[ "$requeued" = yes ] || { echo "slurm-e2e: task 3 was not caught running" >&2; status=1; }
[ "$merged_code" = "$single" ] || { echo "slurm-e2e: exit codes differ" >&2; status=1; }
# The same documents and the same findings (timings, dates and the merge's own fields aside).
summary() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for d in r["documents"]:
    print(d["path"], d["status"], d.get("pageCount"))
    for f in d["findings"]:
        print("  ", f["rule"], f.get("page"), f["message"])
print(json.dumps(r["summary"], sort_keys=True))
PY
}
if ! diff <(summary single/report.json) <(summary out/audit/report.json) >"$work/diff.txt"; then
  echo "slurm-e2e: the merged report differs from the one-machine run:" >&2
  head -20 "$work/diff.txt" >&2
  status=1
fi
docs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["documents"])' out/audit/report.json)
echo "slurm-e2e: $docs documents; merged report $([ $status = 0 ] && echo "matches" || echo "DIFFERS") the one-machine run"
exit $status
