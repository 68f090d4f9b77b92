#!/usr/bin/env bash
# Real runs of the semi-empirical method on this machine (issue 20, acceptance 3): the three
# shared-memory programs of crates/threadprogs, each with its thread-graph model in
# examples/semi/. For each thread count P ∈ {1, 2}: two sample sizes (segment times summed
# over the threads), and measured runs at sizes at least 4× the larger sample size, five
# repetitions each. Then `vates semi validate` prints the paper's table form.
#
#   bench/semi_real.sh ge apsp queue     # the quick sets (a few minutes on 2 cores)
#   bench/semi_real.sh ge_large          # about 35 minutes
#   REPS=3 bench/semi_real.sh ge_dram    # about 25 minutes per repetition
#   bench/semi_real.sh ge_steps          # GE's cost per element by step, N = 3072, 9216, 3072
#
# Sets: ge (samples whose matrices fit in a cache, targets' not), ge_large (samples past the
# probe's latency boundary but within the 32 MiB last-level cache, targets far past it),
# ge_dram (samples and target past every cache, as the paper prescribes), apsp, queue.
# The first two GE sets carry the cache-level warning. Without arguments: every set.
#
# Writes examples/semi/machine.json (a full `vates probe`, unless it exists) and
# examples/semi/PROGRAM_{samples,measured}.csv (appending; delete them to start over: runs
# already there are skipped). The CSVs are committed: the fit and the errors are regression
# tests (crates/semi/tests/real_runs.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p vates -p threadprogs
V=target/release/vates
T=target/release/threadprogs
OUT=examples/semi
REPS=${REPS:-5}

[ -f "$OUT/machine.json" ] || $V probe -o "$OUT/machine.json" > /dev/null

# Per set: the program (and model), its size parameter, the sample sizes, the measured sizes.
declare -A PROG PARAM SAMPLE MEASURE
PROG[ge]=ge;       PARAM[ge]=N;      SAMPLE[ge]="240 320";        MEASURE[ge]="1280 1600"
PROG[ge_large]=ge;  PARAM[ge_large]=N; SAMPLE[ge_large]="1600 1792"; MEASURE[ge_large]="6400 7168"
PROG[ge_dram]=ge;   PARAM[ge_dram]=N;  SAMPLE[ge_dram]="3072 3328";  MEASURE[ge_dram]="13312"
PROG[apsp]=apsp;   PARAM[apsp]=N;    SAMPLE[apsp]="192 256";      MEASURE[apsp]="1024 1280"
PROG[queue]=queue; PARAM[queue]=W;   SAMPLE[queue]="1000 2000";   MEASURE[queue]="8000 16000"

sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(ge ge_large ge_dram apsp queue)

# ge_steps: why GE's samples do not scale on this machine. GE's elimination cost per
# element in bands of trailing size m (step k updates m = N - k - 1 rows of m columns), one
# thread, a small and a large size interleaved within the hour (GE_STEPS_SIZES), so that the
# machine's drift between hours cannot explain a difference between them.
if [ "${sets[*]}" = ge_steps ]; then
  for n in ${GE_STEPS_SIZES:-3072 9216 3072}; do
    echo "== ge-steps N=$n P=1 ($(date -u +%H:%M))"
    $T ge-steps "$n" 1 1 2> /dev/null
  done
  exit 0
fi

# Repetitions sweep every size and thread count in turn, so that a drift of the shared
# machine's speed reaches the sample runs and the measured runs alike.
for set in "${sets[@]}"; do
  prog=${PROG[$set]}
  x=${PARAM[$set]}
  samples="$OUT/${set}_samples.csv"
  measured="$OUT/${set}_measured.csv"
  [ -f "$samples" ] || echo "$x,P,rep,segment,seconds" > "$samples"
  [ -f "$measured" ] || echo "$x,P,rep,seconds" > "$measured"
  for rep in $(seq 0 $((REPS - 1))); do
    for p in 1 2; do
      for n in ${SAMPLE[$set]}; do
        grep -q "^$n,$p,$rep," "$samples" && continue
        $T "$prog" "$n" "$p" $((rep + 1)) 2> /dev/null | sed "s/^/$n,$p,$rep,/" >> "$samples"
      done
      for n in ${MEASURE[$set]}; do
        grep -q "^$n,$p,$rep," "$measured" && continue
        t=$($T "$prog" "$n" "$p" $((rep + 1)) 2> /dev/null | sed -n 's/^run,//p')
        echo "$n,$p,$rep,$t" >> "$measured"
      done
    done
  done
  echo "== $set"
  $V semi validate "$OUT/$prog.tg" --samples "$samples" --measured "$measured" \
    --machine "$OUT/machine.json"
done
