#!/usr/bin/env bash
# Real runs of the six BOTS kernels in C with OpenMP tasks (crates/bots/openmp, built with
# clang -fopenmp), recorded through the OMPT tool by `vates taskpar record --runtime openmp`,
# with the protocol and the sizes of bench/taskpar_real.sh (the Rust kernels): training at
# p ∈ {1, 2} over small sizes, test runs at sizes at least 4× the largest training size
# (fib and nqueens: 4× in 2^n), three repetitions each, traced and untraced; replay: each
# test size recorded at p = 1 (the tool keeps every strand), scheduled at P = 2 by the
# task-graph engine, against the measured p = 2 time (untraced, median).
#
#   bench/taskpar_real_openmp.sh              # all kernels (about 25 minutes on 2 cores)
#   bench/taskpar_real_openmp.sh fib sort     # some
#   bench/taskpar_real_openmp.sh --table      # only the table, from the committed CSVs
#
# The table's last line is fib (Rust) recorded again with work booked as DAG Recorder books
# it: examples/taskpar/fib-2026-11-28 (OUT=that bench/taskpar_real.sh fib).
# Writes examples/taskpar/openmp/{train,test,replay}.csv (appending: delete them to start
# over; runs already there are skipped), then prints the table of bench/RESULTS.md ("Real
# runs of the BOTS kernels"): per kernel, the median relative error of the two-step model,
# of the direct regression (against the traced runs' elapsed time, the untraced runs' in
# brackets) and of the replay at p = 2, for the C/OpenMP kernels beside the Rust ones of
# examples/taskpar/{train,test,replay}.csv (bench/taskpar_real.sh).
# Needs clang and libomp-dev (Debian). CARGO (default cargo) and CARGO_TARGET_DIR are
# honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${CARGO_TARGET_DIR:-target}
${CARGO:-cargo} build --release -q -p vates
V=$T/release/vates
OUT=examples/taskpar/openmp
RUST=examples/taskpar
mkdir -p "$OUT"

declare -A TRAIN TEST
TRAIN[fib]=28..36;                TEST[fib]=38,40
TRAIN[nqueens]=7..11;             TEST[nqueens]=13
TRAIN[sort]=65536,131072,262144,524288,1048576,2097152,4194304; TEST[sort]=16777216,33554432
TRAIN[sparselu]=10..35:5;         TEST[sparselu]=140,160
TRAIN[strassen]=128,256,512,1024; TEST[strassen]=4096
TRAIN[fft]=16384,32768,65536,131072,262144,524288,1048576; TEST[fft]=4194304,8388608

table_only=no
kernels=()
for a in "$@"; do
  if [ "$a" = --table ]; then table_only=yes; else kernels+=("$a"); fi
done
[ ${#kernels[@]} -eq 0 ] && kernels=(fib nqueens sort sparselu strassen fft)

if [ $table_only = no ]; then
  BIN=$(realpath -m "$T/openmp-bin")
  make -s -C crates/bots/openmp BIN="$BIN" all ompt
  TOOL=$BIN/libvates_ompt.so
  for k in "${kernels[@]}"; do
    echo "== $k (C/OpenMP): training runs"
    $V taskpar record --runtime openmp --ompt-tool "$TOOL" --sizes "${TRAIN[$k]}" --procs 1,2 \
      --reps 3 --app "$k" -o "$OUT/train.csv" -- "$BIN/$k" "{n}" | tail -1
    echo "== $k (C/OpenMP): test runs"
    $V taskpar record --runtime openmp --ompt-tool "$TOOL" --sizes "${TEST[$k]}" --procs 1,2 \
      --reps 3 --app "$k" -o "$OUT/test.csv" -- "$BIN/$k" "{n}" | tail -1
  done
  # Replay at P = 2 of a p = 1 recording, against the median measured p = 2 time (untraced).
  [ -f "$OUT/replay.csv" ] || echo "app,n,replay_p2,measured_p2,work_p1" > "$OUT/replay.csv"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for k in "${kernels[@]}"; do
    for n in ${TEST[$k]//,/ }; do
      if grep -q "^$k,$n," "$OUT/replay.csv"; then continue; fi
      OMP_TOOL_LIBRARIES="$TOOL" VATES_TASKREC="$tmp/run.dag" OMP_NUM_THREADS=1 "$BIN/$k" "$n" > /dev/null
      replay=$($V graph analyze "$tmp/run.dag" --procs 2 --format json | sed -n 's/^  "makespan": \([^,]*\),$/\1/p')
      work=$($V taskpar stats "$tmp/run.dag" --format json | grep '^    "work"' | tail -1 | sed 's/.*: \([^,]*\),*$/\1/')
      measured=$(awk -F, -v a="$k" -v n="$n" '$1==a && $2==n && $3==2 {print $13}' "$OUT/test.csv" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
      echo "$k,$n,$replay,$measured,$work" >> "$OUT/replay.csv"
      echo "== $k n=$n: replay $replay s, measured $measured s"
    done
  done
fi

# The table: two-step and direct-regression medians from `vates taskpar report`, the
# replay's median relative error from replay.csv, per kernel, Rust beside C/OpenMP.
report() {
  local dir=$1
  shift
  $V taskpar report "$dir/train.csv" "$dir/test.csv" "$@" --format json
}
both=(--transform fib:n=2^n --transform nqueens:n=2^n)
FIB=$RUST/fib-2026-11-28
python3 - <(report "$RUST" "${both[@]}") "$RUST/replay.csv" <(report "$OUT" "${both[@]}") \
  "$OUT/replay.csv" <(report "$FIB" --transform fib:n=2^n) "$FIB/replay.csv" <<'PY'
import csv, json, statistics, sys

def medians(path):
    return {m["app"]: m["median"] for m in json.load(open(path))["medians"]}

def replay(path):
    out = {}
    for r in csv.DictReader(open(path)):
        m = float(r["measured_p2"])
        out.setdefault(r["app"], []).append(abs(float(r["replay_p2"]) - m) / m)
    return {k: statistics.median(v) for k, v in out.items()}

def pct(x):
    return "–" if x is None else f"{100 * x:.1f}%"

def cells(med, rep, app):
    m = med.get(app)
    if m is None:
        return ["–", "–", "–"]
    return [f"{pct(m['time'])} ({pct(m.get('untraced'))})",
            f"{pct(m['direct'])} ({pct(m.get('direct_untraced'))})",
            pct(rep.get(app))]

rust, rust_rep = medians(sys.argv[1]), replay(sys.argv[2])
c, c_rep = medians(sys.argv[3]), replay(sys.argv[4])
print("| kernel | Rust two-step | Rust direct | Rust replay p = 2 | C/OpenMP two-step | C/OpenMP direct | C/OpenMP replay p = 2 |")
print("|---|---|---|---|---|---|---|")
for app in ["strassen", "fft", "sort", "sparselu", "fib", "nqueens"]:
    print("| " + " | ".join([app] + cells(rust, rust_rep, app) + cells(c, c_rep, app)) + " |")
fib, fib_rep = medians(sys.argv[5]), replay(sys.argv[6])
print("| fib, Rust re-measured (fib-2026-11-28) | " + " | ".join(cells(fib, fib_rep, "fib")) + " | | | |")
PY
