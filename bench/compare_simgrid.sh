#!/usr/bin/env bash
# Reads and schedules the same layered task graph (10^6 tasks, 4·10^6 edges by default) with
# `vates graph analyze` (JSON and DOT inputs) and with SimGrid's DAG loaders (DAX and DOT) plus
# a list scheduler, and prints a table: median wall time and peak RSS of whole processes, the
# ratios to vates on JSON, and the makespans (which must agree).
#
# Usage: bench/compare_simgrid.sh     (from anywhere: it works in the repository root, so a
#        relative VATES is relative to that root)
# Env:   VATES (default target/release/vates: `cargo build --release` first), TASKS (1000000),
#        WIDTH (1000), DEGREE (4), SEED (1), PROCS (64), REPS (3), PYTHON (python3),
#        CXX (c++), SIMGRID_CXXFLAGS (-O2 -std=c++17),
#        SIMGRID_PREFIX (where SimGrid is installed, if pkg-config does not know;
#        /opt/simgrid, /usr/local and /usr are tried),
#        SIMGRID_DAG (an already built bench/simgrid_dag.cpp: skips detection and compiling),
#        KEEP=1 keeps the temporary directory with the graphs.
# Needs: vates; optionally SimGrid's C++ library and headers (see bench/README.md). Without
#        them only the vates rows are printed.
set -euo pipefail
cd "$(dirname "$0")/.."

VATES=${VATES:-target/release/vates}
TASKS=${TASKS:-1000000}; WIDTH=${WIDTH:-1000}; DEGREE=${DEGREE:-4}; SEED=${SEED:-1}
PROCS=${PROCS:-64}; REPS=${REPS:-3}
PY=${PYTHON:-python3}

if [ ! -x "$VATES" ]; then
  echo "no vates binary at $VATES: run \`cargo build --release\` first, or set VATES" >&2
  exit 1
fi
DIR=$(mktemp -d "${TMPDIR:-/tmp}/vates-simgrid.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "keeping $DIR" >&2; else trap 'rm -rf "$DIR"' EXIT; fi

now() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }
have_time=0
if [ -x /usr/bin/time ] && /usr/bin/time -f '%M' -o /dev/null true 2>/dev/null; then have_time=1; fi

# run TOOL INPUT FILE KIND CMD...: REPS runs of CMD; appends one row to $DIR/rows:
# tool, input, file, space-separated wall times, peak RSS in KB (or -), makespan (or -).
# KIND says where the makespan is: vates (--format json on stdout) or simgrid (makespan=).
run() {
  local tool=$1 input=$2 file=$3 kind=$4; shift 4
  local walls="" rss="" ms="-" i t0 t1
  for ((i = 1; i <= REPS; i++)); do
    t0=$(now)
    if [ $have_time = 1 ]; then
      /usr/bin/time -f '%M' -o "$DIR/rss" "$@" >"$DIR/out" 2>"$DIR/err" || { fail "$tool" "$input"; return; }
    else
      "$@" >"$DIR/out" 2>"$DIR/err" || { fail "$tool" "$input"; return; }
    fi
    t1=$(now)
    walls="$walls $(echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}')"
    if [ $have_time = 1 ]; then rss="$rss $(tail -n 1 "$DIR/rss")"; else rss="$rss -"; fi
    echo "   $tool $input run $i: $(echo "$walls" | awk '{print $NF}') s" >&2
  done
  if [ "$kind" = vates ]; then
    ms=$("$PY" -c 'import json,sys; print(repr(json.load(sys.stdin)["makespan"]))' <"$DIR/out")
  else
    ms=$(sed -n 's/^makespan=//p' "$DIR/out")
    sed -n 's/^\(load_seconds\|run_seconds\)=/   &/p' "$DIR/out" >&2
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$input" "$file" "${walls# }" "${rss# }" "$ms" >>"$DIR/rows"
}
fail() {
  echo "   $1 $2 failed:" >&2
  tail -n 5 "$DIR/err" >&2
  printf '%s\t%s\t-\tfailed\t-\t-\n' "$1" "$2" >>"$DIR/rows"
}

echo "== graph: layered, $TASKS tasks, width $WIDTH, degree $DEGREE, uniform:1,10, seed $SEED" >&2
"$VATES" graph gen layered --tasks "$TASKS" --width "$WIDTH" --degree "$DEGREE" \
  --time uniform:1,10 --seed "$SEED" -o "$DIR/g.json"
"$VATES" graph convert "$DIR/g.json" "$DIR/g.dot"
: >"$DIR/rows"

echo "== vates graph analyze --procs $PROCS (fifo, basic model), $REPS runs each" >&2
run vates JSON "$DIR/g.json" vates "$VATES" graph analyze "$DIR/g.json" --procs "$PROCS" --format json
run vates DOT "$DIR/g.dot" vates "$VATES" graph analyze "$DIR/g.dot" --procs "$PROCS" --format json

# SimGrid: the DAG loaders are C++ only (the Python bindings do not expose them), so the driver
# bench/simgrid_dag.cpp is compiled against an installed SimGrid, when there is one.
sg_flags=""
if pkg-config --exists simgrid 2>/dev/null; then
  sg_flags="$(pkg-config --cflags --libs simgrid)"
  libdir=$(pkg-config --variable=libdir simgrid)
  if [ -n "$libdir" ]; then sg_flags="$sg_flags -Wl,-rpath,$libdir"; fi
else
  for p in ${SIMGRID_PREFIX:-} /opt/simgrid /usr/local /usr; do
    if [ -f "$p/include/simgrid/s4u.hpp" ]; then
      # No -I/usr/include: it breaks libstdc++'s #include_next.
      if [ "$p" = /usr ]; then sg_flags="-lsimgrid"; else sg_flags="-I$p/include -L$p/lib -Wl,-rpath,$p/lib -lsimgrid"; fi
      break
    fi
  done
fi
if "$PY" -c 'import simgrid' 2>/dev/null; then
  echo "   (Python module simgrid $("$PY" -c 'import simgrid; print(simgrid.simgrid_version)' 2>/dev/null || true)" \
    "found; its bindings do not expose create_DAG_from_DAX/dot, so the C++ library is used)" >&2
fi

sg=${SIMGRID_DAG:-}
sg_note=""
if [ -n "$sg" ]; then
  echo "== SimGrid: using the driver $sg" >&2
elif [ -z "$sg_flags" ]; then
  sg_note="SimGrid not installed: skipped (see bench/README.md)"
  echo "$sg_note" >&2
else
  echo "== SimGrid: compiling bench/simgrid_dag.cpp ($sg_flags)" >&2
  # shellcheck disable=SC2086 # sg_flags holds several words
  if ${CXX:-c++} ${SIMGRID_CXXFLAGS:--O2 -std=c++17} bench/simgrid_dag.cpp -o "$DIR/simgrid_dag" $sg_flags 2>"$DIR/cc.err"; then
    sg="$DIR/simgrid_dag"
  else
    tail -n 20 "$DIR/cc.err" >&2
    sg_note="SimGrid found but bench/simgrid_dag.cpp did not compile: skipped"
    echo "$sg_note" >&2
  fi
fi

if [ -n "$sg" ]; then
  echo "== converting for SimGrid's loaders (not timed)" >&2
  "$PY" bench/simgrid_dag.py platform "$PROCS" "$DIR/platform.xml"
  "$PY" bench/simgrid_dag.py dax "$DIR/g.json" "$DIR/g.dax.xml"
  "$PY" bench/simgrid_dag.py dot "$DIR/g.json" "$DIR/g.sg.dot"
  echo "== SimGrid: load + list scheduling on $PROCS hosts, $REPS runs each" >&2
  run SimGrid DAX "$DIR/g.dax.xml" simgrid "$sg" "$DIR/platform.xml" dax "$DIR/g.dax.xml"
  run SimGrid DOT "$DIR/g.sg.dot" simgrid "$sg" "$DIR/platform.xml" dot "$DIR/g.sg.dot"
fi

"$PY" - "$DIR/rows" "$TASKS" "$PROCS" "$sg_note" <<'PYEOF'
import os, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
tasks, procs, sg_note = sys.argv[2], sys.argv[3], sys.argv[4]

def med(field):
    vals = [float(v) for v in field.split() if v != "-"]
    return statistics.median(vals) if vals else None

base_t = base_m = None
for tool, inp, _, walls, rss, _ in rows:
    if (tool, inp) == ("vates", "JSON") and walls != "failed":
        base_t, base_m = med(walls), med(rss)
print(f"\n{tasks} tasks on {procs} processes; medians of whole-process runs")
print(f"{'tool':8} {'input':5} {'file MB':>8} {'wall s':>9} {'peak RSS MB':>12} {'time ×':>8} {'RSS ×':>7}  makespan")
ok = True
ref = None
for tool, inp, path, walls, rss, ms in rows:
    if walls == "failed":
        print(f"{tool:8} {inp:5} {'':>8} {'failed':>9}")
        ok = False
        continue
    size = os.path.getsize(path) / 1e6
    t, m = med(walls), med(rss)
    m_s = f"{m / 1024:12.0f}" if m is not None else f"{'n/a':>12}"
    rt = f"{t / base_t:7.1f}×" if base_t else f"{'':>8}"
    rm = f"{m / base_m:6.1f}×" if m is not None and base_m else f"{'':>7}"
    note = ""
    if ms in ("", "-"):
        note = "  (no makespan printed)"
        ok = False
    else:
        v = float(ms)
        if ref is None:
            ref = v
        elif abs(v - ref) > 1e-9 * abs(ref):
            note = f"  DIFFERENT (vates JSON: {ref:.17g})"
            ok = False
    print(f"{tool:8} {inp:5} {size:8.1f} {t:9.3f} {m_s} {rt} {rm}  {ms}{note}")
if sg_note:
    print(sg_note)
sys.exit(0 if ok else 1)
PYEOF
