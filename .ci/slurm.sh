#!/usr/bin/env bash
# A one-node Slurm for the Slurm backend's tests: `.ci/slurm.sh start` starts munged,
# slurmctld and slurmd on this host (as root, from Debian's slurm-wlm and munge) with a
# generated slurm.conf for this machine's CPUs; `.ci/slurm.sh stop` stops them. Starting
# twice is harmless: a running cluster is left as it is. State and logs go to
# $SLURM_LAB_DIR (default /tmp/vates-slurm); the config to /etc/slurm/slurm.conf, where
# Slurm's commands look.
set -euo pipefail
LAB=${SLURM_LAB_DIR:-/tmp/vates-slurm}
CONF=/etc/slurm/slurm.conf
die() { echo "slurm.sh: $*" >&2; exit 1; }
showlog() { [ -f "$1" ] && { echo "---- end of $1 ----" >&2; tail -n 25 "$1" >&2; }; true; }

stop() {
  pgrep -x slurmctld >/dev/null && timeout 5 scancel --state=RUNNING,PENDING --user=root 2>/dev/null || true
  for d in slurmd slurmstepd slurmctld munged; do
    pkill -x "$d" 2>/dev/null || true
    for _ in $(seq 50); do pgrep -x "$d" >/dev/null || break; sleep 0.1; done
    pkill -9 -x "$d" 2>/dev/null || true
  done
}

start() {
  [ "$(id -u)" = 0 ] || die "must run as root"
  for b in munged slurmctld slurmd sinfo scontrol; do
    command -v $b >/dev/null || die "$b not found (apt-get install slurm-wlm munge)"
  done
  if [ -f "$CONF" ] && pgrep -x slurmctld >/dev/null && pgrep -x slurmd >/dev/null \
     && timeout 10 scontrol ping 2>/dev/null | grep -q 'is UP'; then
    echo "slurm.sh: already running"; exit 0
  fi
  mkdir -p "$LAB"/{state,spool,log} /run/munge /var/log/munge /var/lib/munge /etc/munge /etc/slurm
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null \
      || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  fi
  chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
  chmod 0700 /etc/munge /var/log/munge; chmod 0600 /etc/munge/munge.key; chmod 0755 /run/munge
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    rm -f /run/munge/munged.pid
    runuser -u munge -- /usr/sbin/munged --force || { showlog /var/log/munge/munged.log; die "munged did not start"; }
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  fi
  node=$(hostname -s)
  getent hosts "$node" >/dev/null || echo "127.0.0.1 $node" >> /etc/hosts
  hw=$(slurmd -C | head -1)
  cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw"); cpus=${cpus:-$(nproc)}
  topo=$(grep -oE '(Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=[0-9]+' <<<"$hw" | xargs || true)
  mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hw"); mem=$(( ${mem:-4096} * 95 / 100 ))
  # Scheduling every second and no batch delay: a test's array starts within a second or two.
  cat > "$CONF" <<CONF
ClusterName=vates
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$LAB/state
SlurmdSpoolDir=$LAB/spool
SlurmctldPidFile=$LAB/slurmctld.pid
SlurmdPidFile=$LAB/slurmd.pid
SlurmctldLogFile=$LAB/log/slurmctld.log
SlurmdLogFile=$LAB/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LAB/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
DefMemPerCPU=1024
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=300
MessageTimeout=10
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,sched_min_interval=0,batch_sched_delay=0,bf_interval=1
KillWait=2
InactiveLimit=0
Waittime=0
OverTimeLimit=0
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus $topo RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF

  pkill -x slurmctld 2>/dev/null || true; pkill -x slurmd 2>/dev/null || true; sleep 0.5
  slurmctld -f "$CONF" -i || { showlog "$LAB/log/slurmctld.log"; die "slurmctld did not start"; }
  for _ in $(seq 50); do scontrol ping 2>/dev/null | grep -q 'is UP' && break; sleep 0.2; done
  scontrol ping | grep -q 'is UP' || { showlog "$LAB/log/slurmctld.log"; die "slurmctld does not answer"; }
  slurmd -f "$CONF" -N "$node" || { showlog "$LAB/log/slurmd.log"; die "slurmd did not start"; }
  for _ in $(seq 60); do
    st=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    case "$st" in idle*) break;; down*|drain*|fail*) scontrol update nodename="$node" state=resume 2>/dev/null || true;; esac
    sleep 0.5
  done
  st=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
  [[ "$st" == idle* ]] || { showlog "$LAB/log/slurmctld.log"; showlog "$LAB/log/slurmd.log"; die "the node is '$st', not idle"; }
  echo "slurm.sh: one-node cluster up ($cpus CPUs; logs in $LAB/log)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) die "usage: .ci/slurm.sh start|stop" ;;
esac
