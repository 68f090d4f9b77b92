#!/usr/bin/env bash
# Runs the same deterministic MRM in vates's simulator and in SimPy and prints both wall
# times (medians), both simulated T values (which must agree) and the speed ratio.
#
# Usage: bench/compare_simpy.sh [P] [N] [tau_l] [tau_s]      (defaults 1000 1000 3 1)
# Env:   VATES_REPS (default 5), SIMPY_REPS (default 3), PYTHON (default python3).
# Needs: cargo; optionally SimPy (`pip install simpy`); without it only vates runs.
set -euo pipefail
cd "$(dirname "$0")/.."

P=${1:-1000}; N=${2:-1000}; TL=${3:-3}; TS=${4:-1}
PY=${PYTHON:-python3}

echo "== building (release)" >&2
cargo build --release -q -p pamela --example mrm_sim
exe="$(cargo metadata --format-version 1 --no-deps 2>/dev/null \
  | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' 2>/dev/null \
  || echo target)/release/examples/mrm_sim"

field() { sed -n "s/^$1=//p"; }

echo "== vates: MRM P=$P N=$N tau_l=$TL tau_s=$TS" >&2
vout=$("$exe" "$P" "$N" "$TL" "$TS" "${VATES_REPS:-5}")
echo "$vout"
vt=$(echo "$vout" | field T); vs=$(echo "$vout" | field seconds)

if ! "$PY" -c 'import simpy' 2>/dev/null; then
  echo "SimPy is not installed (pip install simpy); skipping the comparison." >&2
  exit 0
fi
echo "== SimPy: same model" >&2
sout=$("$PY" bench/simpy_mrm.py "$P" "$N" "$TL" "$TS" "${SIMPY_REPS:-3}")
echo "$sout"
st=$(echo "$sout" | field T); ss=$(echo "$sout" | field seconds)

"$PY" - "$vt" "$st" "$vs" "$ss" <<'PYEOF'
import sys
vt, st, vs, ss = map(float, sys.argv[1:])
print()
print(f"T        vates {vt:.15g}   SimPy {st:.15g}   {'equal' if vt == st else 'DIFFERENT'}")
print(f"seconds  vates {vs:.4f}   SimPy {ss:.3f}   (medians)")
print(f"speed-up vates / SimPy: {ss / vs:.0f}x")
sys.exit(0 if vt == st else 1)
PYEOF
