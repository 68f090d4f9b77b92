#!/usr/bin/env bash
# Real runs of the six BOTS kernels on this machine (issue 19, acceptance 5): train on
# p ∈ {1, 2} over small sizes, test at sizes at least 4× the largest training size (for fib
# and nqueens, whose work is exponential in n, 4× in the transformed size 2^n: n + 2), at
# p = 1 and 2, three repetitions each, traced and untraced. Then replay: each test size
# recorded at p = 1 with every strand kept, scheduled at P = 2 by the task-graph engine,
# against the measured p = 2 time.
#
#   bench/taskpar_real.sh            # all kernels (about 15 minutes on 2 cores)
#   bench/taskpar_real.sh fib sort   # some
#
# The C/OpenMP kernels, and the table of both: bench/taskpar_real_openmp.sh. CARGO (default
# cargo) and CARGO_TARGET_DIR are honoured.
#
# Writes examples/taskpar/{train,test,replay}.csv, or OUT/ (appending: delete them to start
# over; runs already there are skipped) and prints `vates taskpar report`. fib re-measured
# with work booked as DAG Recorder books it (issue 30):
#   OUT=examples/taskpar/fib-2026-11-28 bench/taskpar_real.sh fib The CSVs are committed:
# the fit and the errors are regression tests (crates/taskpar/tests/real_runs.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
${CARGO:-cargo} build --release -q -p vates -p bots
T=${CARGO_TARGET_DIR:-target}
V=$T/release/vates
B=$T/release/bots
OUT=${OUT:-examples/taskpar}
mkdir -p "$OUT"

declare -A TRAIN TEST
TRAIN[fib]=28..36;                TEST[fib]=38,40
TRAIN[nqueens]=7..11;             TEST[nqueens]=13
TRAIN[sort]=65536,131072,262144,524288,1048576,2097152,4194304; TEST[sort]=16777216,33554432
TRAIN[sparselu]=10..35:5;         TEST[sparselu]=140,160
TRAIN[strassen]=128,256,512,1024; TEST[strassen]=4096
TRAIN[fft]=16384,32768,65536,131072,262144,524288,1048576; TEST[fft]=4194304,8388608

kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(fib nqueens sort sparselu strassen fft)

for k in "${kernels[@]}"; do
  echo "== $k: training runs"
  $V taskpar record --sizes "${TRAIN[$k]}" --procs 1,2 --reps 3 --app "$k" -o "$OUT/train.csv" -- "$B" "$k" "{n}" | tail -1
  echo "== $k: test runs"
  $V taskpar record --sizes "${TEST[$k]}" --procs 1,2 --reps 3 --app "$k" -o "$OUT/test.csv" -- "$B" "$k" "{n}" | tail -1
done

# Replay at P = 2 of a p = 1 recording, against the median measured p = 2 time (untraced).
[ -f "$OUT/replay.csv" ] || echo "app,n,replay_p2,measured_p2,work_p1" > "$OUT/replay.csv"
tmp=$(mktemp -d)
for k in "${kernels[@]}"; do
  for n in ${TEST[$k]//,/ }; do
    if grep -q "^$k,$n," "$OUT/replay.csv"; then continue; fi
    VATES_TASKREC="$tmp/run.dag" VATES_TASKREC_COLLAPSE=0 RAYON_NUM_THREADS=1 "$B" "$k" "$n" > /dev/null
    replay=$($V graph analyze "$tmp/run.dag" --procs 2 --format json | sed -n 's/^  "makespan": \([^,]*\),$/\1/p')
    # The seconds block's work (the clock block, in ticks, comes first).
    work=$($V taskpar stats "$tmp/run.dag" --format json | grep '^    "work"' | tail -1 | sed 's/.*: \([^,]*\),*$/\1/')
    measured=$(awk -F, -v a="$k" -v n="$n" '$1==a && $2==n && $3==2 {print $13}' "$OUT/test.csv" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
    echo "$k,$n,$replay,$measured,$work" >> "$OUT/replay.csv"
    echo "== $k n=$n: replay $replay s, measured $measured s"
  done
done
rm -rf "$tmp"

$V taskpar report "$OUT/train.csv" "$OUT/test.csv" --transform fib:n=2^n --transform nqueens:n=2^n \
  --plot "$OUT/report.svg"
