#!/usr/bin/env bash
# Runs the Slurm job-array recipe of docs/scaling.md on a throwaway single-node cluster and checks
# that the shards' outputs together are exactly what one plain `kbaudit audit` writes.
#
# Sets up, in a temporary directory: a munge key and `munged`, a minimal slurm.conf (one node
# `localhost`, 2 CPUs, one stand-in GPU so the recipe's --gres=gpu:1 is honoured, no cgroups) with
# its own free ports, `slurmctld` and `slurmd`. Submits the recipe (extracted from the docs, so the
# tested script is the documented one) with `sbatch --array=1-3 --wait`, static audit only (no GPU
# here), then re-runs task 2 alone with KBAUDIT_SHARDS=3. Tears everything down on every exit.
#
# Usage: tests/slurm/run_slurm_recipe.sh [KBAUDIT_BINARY]
#   KBAUDIT_CORPUS   corpus root (runs/, problems/); without it, examples/runs and examples/problems
#   KBAUDIT_SLURM_KEEP=1  keep the temporary directory (logs) after the run
# Exit 0: pass; 1: the recipe ran and something is wrong; 77: skipped (slurm-wlm or munge missing,
# or the daemons cannot start here), with the reason on stdout.
#
# It cannot hang or leak: every client command runs under `timeout`, a watchdog ends the script
# after $budget seconds, the trap stops the daemons on any exit, and each daemon runs under its
# own `timeout` so it dies on its own even if this script is SIGKILLed.
set -uo pipefail
set +m   # no job control: background children stay out of their own process groups (see start_daemon)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:-${KBAUDIT_BINARY:-$root/build/kbaudit}}
budget=${KBAUDIT_SLURM_BUDGET:-420}          # whole script, seconds (ctest TIMEOUT is above this)
daemon_life=$((budget + 60))                 # daemons end themselves after this, whatever happens

say() { echo "slurm-recipe: $*"; }
skip() { say "SKIP: $*"; exit 77; }
fail() { say "FAIL: $*"; exit 1; }

# --- prerequisites ----------------------------------------------------------------------------
for tool in munged munge unmunge slurmctld slurmd sbatch scontrol sinfo squeue scancel timeout; do
  command -v "$tool" >/dev/null 2>&1 \
    || skip "'$tool' not installed (Debian: apt-get install slurm-wlm munge; or KBAUDIT_WITH_SLURM=1 ./setup.sh)"
done
[ -x "$bin" ] || fail "no kbaudit binary at $bin (build first, or pass its path)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")   # the jobs run in another directory
corpus=${KBAUDIT_CORPUS:-$root/../shared/corpus}
if [ -d "$corpus/runs" ] && [ -d "$corpus/problems" ]; then
  runs=$(cd "$corpus/runs" && pwd) problems=$(cd "$corpus/problems" && pwd)
else
  runs=$root/examples/runs problems=$root/examples/problems
fi

# A Slurm job around this test (CI on a cluster) must not leak into the throwaway one.
while read -r v; do unset "$v"; done < <(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p')

# --- teardown, armed before anything starts ---------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbaudit-slurm.XXXXXX") || fail "mktemp failed"
chmod 755 "$tmp"   # munged wants its socket directory searchable by everyone
daemon_pids=()     # each the leader of its own session (setsid), killed as a group
watchdog=""
child=""           # the bounded foreground command running now (run_bounded)

stop_group() {     # stop_group PID: TERM the daemon's process group, then KILL what is left
  local pid=$1 i
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 50); do
    kill -0 -- "-$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
  return 0
}

# Processes of this throwaway cluster that left the daemons' sessions: slurmstepd daemonizes
# itself, but keeps the working directory the daemons were started in ($tmp), and the jobs name
# files under $tmp. Only processes tied to this run's unique $tmp are touched, by pid.
leftovers() {
  local p pid
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [ "$pid" = $$ ] && continue
    case "$(readlink "$p/cwd" 2>/dev/null)" in "$tmp" | "$tmp"/*) echo "$pid"; continue ;; esac
    case "$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")" in *"$tmp"/*) echo "$pid" ;; esac
  done
}

cleanup() {
  local rc=$? i pids
  trap - EXIT INT TERM HUP
  [ -n "$child" ] && kill "$child" 2>/dev/null
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null && wait "$watchdog" 2>/dev/null
  if [ -f "$tmp/slurm.conf" ] && [ ${#daemon_pids[@]} -gt 0 ]; then
    SLURM_CONF=$tmp/slurm.conf timeout 10 scancel --full --quiet --partition=kbtest 2>/dev/null
    SLURM_CONF=$tmp/slurm.conf wait_for 15 no_jobs
  fi
  # slurmd and slurmctld before munged: they talk to it while shutting down.
  for ((i = ${#daemon_pids[@]} - 1; i >= 0; i--)); do stop_group "${daemon_pids[i]}"; done
  pids=$(leftovers)
  if [ -n "$pids" ]; then
    say "stopping leftover processes of this cluster: $(echo $pids)"
    kill -KILL $pids 2>/dev/null
  fi
  for ((i = ${#daemon_pids[@]} - 1; i >= 0; i--)); do
    if kill -0 -- "-${daemon_pids[i]}" 2>/dev/null; then
      say "WARNING: process group ${daemon_pids[i]} survived teardown"; rc=1
    fi
  done
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -d "$tmp/log" ]; then
    for f in "$tmp"/log/* "$tmp"/work/*.log; do
      [ -f "$f" ] || continue
      echo "----- ${f#"$tmp"/} (last 15 lines)"; tail -n 15 "$f"
    done
  fi
  if [ "${KBAUDIT_SLURM_KEEP:-0}" = 1 ]; then say "kept $tmp"; else rm -rf "$tmp"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'say "FAIL: stopped by a signal or by the ${budget}s watchdog"; exit 1' INT TERM HUP
# The watchdog holds no pipe of ours open (ctest would wait for it) and takes its sleep along.
( trap 'kill "$s" 2>/dev/null; exit 0' TERM
  sleep "$budget" & s=$!
  wait "$s" && grep -q run_slurm_recipe "/proc/$$/cmdline" && kill -TERM $$ ) >/dev/null 2>&1 </dev/null &
watchdog=$!

# run_bounded SECONDS CMD...: CMD under `timeout`, waited for with the `wait` builtin so that the
# watchdog's TERM interrupts it at once (bash runs traps only between foreground commands).
run_bounded() {
  local limit=$1 rc; shift
  timeout -k 5 "$limit" "$@" &
  child=$!
  wait "$child"; rc=$?
  child=""
  return "$rc"
}

# start_daemon NAME CMD...: in its own session, under a timeout so it cannot outlive the test,
# started in $tmp (what the job steps inherit; see leftovers).
start_daemon() {
  local name=$1; shift
  (cd "$tmp" && exec setsid timeout -k 5 "$daemon_life" "$@" >"$tmp/log/$name.out" 2>&1 </dev/null) &
  daemon_pids+=("$!")
}
no_jobs() { [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]; }

# wait_for SECONDS CMD...: polls CMD every 0.5 s until it succeeds; gives up at once when one of
# the daemons has exited (it will not come back).
wait_for() {
  local deadline=$((SECONDS + $1)) pid; shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    for pid in "${daemon_pids[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done
    sleep 0.5
  done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p i
  for i in $(seq 1 50); do
    p=$((20000 + RANDOM % 40000))
    port_free "$p" && port_free "$((p + 1))" && { echo "$p"; return 0; }
  done
  return 1
}

mkdir -p "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/work" "$tmp/out" && mkdir -m 700 "$tmp/munge" \
  || fail "cannot create directories under $tmp"

# --- munge ------------------------------------------------------------------------------------
head -c 1024 /dev/urandom >"$tmp/munge/munge.key" && chmod 400 "$tmp/munge/munge.key" || fail "munge key"
sock=$tmp/munge.socket
start_daemon munged munged -F --socket="$sock" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed"
munge_ok() { timeout 5 munge -n -S "$sock" | timeout 5 unmunge -S "$sock"; }
wait_for 15 munge_ok || skip "munged does not start here: $(tail -q -n 3 "$tmp/log/munged.out" "$tmp/log/munged.log" 2>/dev/null | tr '\n' ' ')"

# --- slurm ------------------------------------------------------------------------------------
ctld_port=$(pick_port) || skip "no free TCP ports on 127.0.0.1"
host=$(hostname -s 2>/dev/null || uname -n); host=${host%%.*}
cat >"$tmp/slurm.conf" <<EOF
ClusterName=kbtest
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${ctld_port}
SlurmdPort=$((ctld_port + 1))
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${sock}
StateSaveLocation=${tmp}/state
SlurmdSpoolDir=${tmp}/spool
SlurmctldPidFile=${tmp}/slurmctld.pid
SlurmdPidFile=${tmp}/slurmd.pid
SlurmctldLogFile=${tmp}/log/slurmctld.log
SlurmdLogFile=${tmp}/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
SlurmdParameters=config_overrides
GresTypes=gpu
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 Gres=gpu:1 State=UNKNOWN
PartitionName=kbtest Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
# The stand-in GPU: Slurm counts and hands it out (CUDA_VISIBLE_DEVICES) but nothing uses it.
echo "NodeName=localhost Name=gpu File=/dev/null" >"$tmp/gres.conf"
export SLURM_CONF=$tmp/slurm.conf

start_daemon slurmctld slurmctld -D -i -f "$SLURM_CONF"
ctld_up() { timeout 5 scontrol ping | grep -q UP; }
wait_for 30 ctld_up || skip "slurmctld does not start here: $(tail -q -n 3 "$tmp/log/slurmctld.log" "$tmp/log/slurmctld.out" 2>/dev/null | tr '\n' ' ')"
start_daemon slurmd slurmd -D -N localhost -f "$SLURM_CONF"
node_idle() { timeout 5 sinfo -h -N -n localhost -o %T | grep -qx idle; }
if ! wait_for 45 node_idle; then
  skip "slurmd does not register here (node $(timeout 5 sinfo -h -N -o '%T %E' 2>/dev/null)): $(tail -q -n 3 "$tmp/log/slurmd.log" "$tmp/log/slurmd.out" 2>/dev/null | tr '\n' ' ')"
fi
say "cluster up in $tmp (slurmctld :$ctld_port, $(sbatch --version))"

# --- the documented recipe --------------------------------------------------------------------
recipe=$tmp/kbaudit-array.sbatch
sed -n '/<!-- slurm-recipe:begin -->/,/<!-- slurm-recipe:end -->/p' "$root/docs/scaling.md" \
  | sed '1,2d;$d' | sed '$d' >"$recipe"
head -n 1 "$recipe" | grep -q '^#!/bin/bash' && grep -q -- '--shard' "$recipe" \
  || fail "could not extract the recipe from docs/scaling.md (markers moved?)"

out=$tmp/out
submit() {  # submit ARRAY [EXTRA_ENV]: the recipe over $runs, static audit only; waits for it
  run_bounded 180 sbatch --wait --chdir="$tmp/work" --time=10 --array="$1" \
    --export="ALL,RUNS=$runs,PROBLEMS=$problems,OUT=$out,KBAUDIT=$bin,KBAUDIT_PROBES=${2:+,$2}" "$recipe"
}
say "sbatch --array=1-3 --wait over $runs"
start=$SECONDS
submit 1-3 || fail "sbatch --array=1-3 --wait failed (exit $?)"
say "array done in $((SECONDS - start)) s"
for k in 1 2 3; do
  log=$(ls "$tmp"/work/kbaudit-*_"$k".log 2>/dev/null | head -n 1)
  [ -n "$log" ] || fail "no log for array task $k"
  grep -q "(shard $k/3 of " "$log" || fail "task $k did not audit shard $k/3: $(cat "$log")"
  say "task $k: $(grep 'audited' "$log")"
done

# The plain audit the shards must add up to.
run_bounded 180 "$bin" audit "$runs" --problems "$problems" --out "$tmp/full" --quiet || fail "plain audit failed"
full_count=$(find "$tmp/full" -type f -name '*.yaml' | wc -l)
[ "$full_count" -gt 0 ] || fail "the plain audit wrote nothing"

# Disjoint: no annotation written by two shards. Complete and identical: the merge (as the docs
# say, a copy) is byte-for-byte the plain audit.
dups=$(find "$out" -type f -name '*.yaml' | sed 's|.*/||' | sort | uniq -d)
[ -z "$dups" ] || fail "written by more than one shard: $dups"
mkdir -p "$tmp/merged" && cp "$out"/shard-*/*.yaml "$tmp/merged/" || fail "merge by copying failed"
diff -r -x .kbaudit.lock "$tmp/full" "$tmp/merged" >"$tmp/log/diff.txt" || fail "merged shards differ from the plain audit: $(head -n 20 "$tmp/log/diff.txt")"
say "union of 3 shards == plain audit ($full_count annotations, disjoint)"

# Re-running one task keeps N: the recipe's KBAUDIT_SHARDS.
mv "$out/shard-2" "$tmp/shard-2.first"
submit 2 KBAUDIT_SHARDS=3 || fail "re-running task 2 alone failed (exit $?)"
diff -r -x .kbaudit.lock "$tmp/shard-2.first" "$out/shard-2" >"$tmp/log/diff2.txt" || fail "re-run of shard 2/3 differs: $(head -n 20 "$tmp/log/diff2.txt")"
say "re-run of task 2 alone (KBAUDIT_SHARDS=3) rewrote the same shard"
say "PASS"
