# A single-node Slurm of its own, from Debian's packages (munge and slurm-wlm): munged, slurmctld and
# slurmd on localhost with a generated key and slurm.conf, everything in one folder. Sourced by
# scripts/slurm-e2e.sh and bench/slurm-scale.sh (as root):
#
#   . scripts/slurm-local.sh
#   slurm_up WORK CLUSTER-NAME     # exports SLURM_CONF; an EXIT trap stops the daemons, by process
#                                  # id, and removes WORK
#   slurm_wait JOBID               # waits until the job has ended; prints its state
#   slurm_exit_code JOBID          # its exit code
#
# Ports of its own (near a number from the shell's pid) and its own munge socket: a Slurm or munge
# already running on the machine is left alone.

slurm_pids=()
slurm_work=""
slurm_cleanup() {
  for p in "${slurm_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 1
  for p in "${slurm_pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  [ -z "$slurm_work" ] || rm -rf "$slurm_work"
}

slurm_up() {
  local work=$1 name=$2 port
  command -v slurmctld >/dev/null && command -v munged >/dev/null || {
    apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
  }
  slurm_work=$work
  trap slurm_cleanup EXIT
  mkdir -p "$work"/{munge,state,spool,log,bin,batch}

  dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$work/munge/munge.key"
  /usr/sbin/munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed"
  for _ in $(seq 50); do [ -s "$work/munge/munged.pid" ] && break; sleep 0.1; done
  slurm_pids+=("$(cat "$work/munge/munged.pid")")

  port=$((20000 + ($$ % 20000)))
  cat >"$work/slurm.conf" <<CONF
ClusterName=$name
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
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$work/slurm.conf"
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 100); do [ -s "$work/slurmctld.pid" ] && [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
  slurm_pids+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
  for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
  sinfo -h -o %T | grep -q idle || {
    echo "slurm: the node did not come up" >&2
    tail -5 "$work/log/"*.log >&2
    return 1
  }
}

# Waits (up to an hour) until JOBID has ended (completed jobs stay known for MinJobAge); prints its state.
slurm_wait() {
  local state=""
  for _ in $(seq 18000); do
    state=$(scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1)
    case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
    sleep 0.2
  done
  echo "$state"
}

slurm_exit_code() { scontrol show job "$1" | sed -n 's/.*ExitCode=\([0-9]*\):.*/\1/p' | head -1; }
