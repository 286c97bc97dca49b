#!/usr/bin/env bash
# End to end on a real Slurm: brings up a single-node cluster from Debian's packages (munge and
# slurm-wlm: munged, slurmctld and slurmd on localhost, with a generated key and slurm.conf, all in
# a temporary folder), submits contrib/slurm/pdfpipe-array.sbatch (8 tasks, at most 2 at a time)
# over a corpus and contrib/slurm/pdfpipe-merge.sbatch after it (--dependency=afterok), requeues one
# task while it runs (it resumes its folder), and compares the merged report with a one-machine
# run of the same batch: the same documents, the same findings, the same exit code. Stops every
# daemon it started, by process id. Prints the job ids; exits non-zero on any difference.
#
#   bash scripts/slurm-e2e.sh [PDFPIPE]     (as root; PDFPIPE defaults to .build/debug/pdfpipe)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
exe=$(readlink -f "${1:-.build/debug/pdfpipe}")
[ -x "$exe" ] || { echo "slurm-e2e: no pdfpipe at $exe (swift build first)" >&2; exit 2; }
command -v slurmctld >/dev/null && command -v munged >/dev/null || {
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
}

work=$(mktemp -d /tmp/pdfpipe-slurm-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 1
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"/{munge,state,spool,log,bin,batch}

# munge: a key of our own, its own socket (an existing munged is left alone).
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge/munge.key"
/usr/sbin/munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed"
for _ in $(seq 50); do [ -s "$work/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/munge/munged.pid")")

# Ports of our own (free ones near a number from our pid), so a Slurm already running is untouched.
port=$((20000 + ($$ % 20000)))
cat > "$work/slurm.conf" <<CONF
ClusterName=pdfpipe-e2e
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=600
# Start what waits as soon as something ends (the default looks once a minute).
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
MessageTimeout=10
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=e2e Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do [ -s "$work/slurmctld.pid" ] && [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
sinfo -h -o %T | grep -q idle || { echo "slurm-e2e: the node did not come up" >&2; tail -5 "$work/log/"*.log >&2; exit 1; }

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
merge=$(sbatch --parsable --chdir="$work/batch" --export=ALL --dependency="afterok:$array" "$repo/contrib/slurm/pdfpipe-merge.sbatch")
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

# Wait for the merge to finish (completed jobs stay known for MinJobAge).
for _ in $(seq 1800); do
  state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL) break ;; esac
  sleep 0.2
done
merged_code=$(scontrol show job "$merge" | sed -n 's/.*ExitCode=\([0-9]*\):.*/\1/p')
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
