#!/usr/bin/env bash
# Work as DAG Recorder defines it (issue 30, item 4): each BOTS kernel at its test sizes of
# bench/taskpar_real.sh, at p = 1, three repetitions, traced and untraced. At one worker the
# recorded work T1 (time in strands: the runtime's and the recorder's time between a call
# into the runtime and its return is delay) should be the untraced run's time within 10%.
#
#   bench/taskpar_work.sh            # all kernels (about 10 minutes on 2 cores)
#   bench/taskpar_work.sh fib sort   # some
#
# Prints, per kernel and size, the median work / untraced elapsed, and the same ratio from
# examples/taskpar/test.csv (recorded before the change, when strands abutted).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p vates -p bots
T=${CARGO_TARGET_DIR:-target}
V=$T/release/vates
B=$T/release/bots
declare -A TEST
TEST[fib]=38,40; TEST[nqueens]=13; TEST[sort]=16777216,33554432
TEST[sparselu]=140,160; TEST[strassen]=4096; TEST[fft]=4194304,8388608
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(fib nqueens sort sparselu strassen fft)
tmp=$(mktemp -d)
for k in "${kernels[@]}"; do
  $V taskpar record --sizes "${TEST[$k]}" --procs 1 --reps 3 --app "$k" -o "$tmp/work.csv" -- "$B" "$k" "{n}" > /dev/null
done
python3 - "$tmp/work.csv" examples/taskpar/test.csv <<'PY'
import csv, statistics, sys
def ratios(path):
    out = {}
    for r in csv.DictReader(open(path)):
        if float(r["p"]) == 1 and r.get("elapsed_untraced"):
            out.setdefault((r["app"], r["n"]), []).append(float(r["work"]) / float(r["elapsed_untraced"]))
    return {k: statistics.median(v) for k, v in out.items()}
now, before = ratios(sys.argv[1]), ratios(sys.argv[2])
print("| kernel | n | work / untraced, now | before (strands abutted) |")
print("|---|---|---|---|")
for (app, n), r in sorted(now.items()):
    b = before.get((app, n))
    print(f"| {app} | {n} | {r:.3f} | {b:.3f} |" if b else f"| {app} | {n} | {r:.3f} | – |")
PY
rm -rf "$tmp"
