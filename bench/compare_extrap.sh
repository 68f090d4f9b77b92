#!/usr/bin/env bash
# Extra-P 4.2.5 against `vates fit --modeler extrap` on Extra-P's own test inputs
# (crates/fit/tests/data/extrap/*.txt): per file whether the models agree and the
# whole-process times (median of 3 runs each), and the total time ratio.
#
#   bench/compare_extrap.sh            # EXTRAP_PY defaults to /tmp/extrap_venv/bin/python
#
# Needs a Python with `extrap==4.2.5` (see bench/README.md); without it the script says so
# and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${EXTRAP_PY:-/tmp/extrap_venv/bin/python}
if ! "$PY" -c "import extrap" 2>/dev/null; then
    echo "Extra-P is not installed for $PY: python3 -m venv /tmp/extrap_venv &&" \
         "/tmp/extrap_venv/bin/pip install extrap==4.2.5 (or set EXTRAP_PY)"
    exit 0
fi
cargo build --release -q -p vates
EXTRAP_BIN="$(dirname "$PY")/extrap"
"$PY" - "$EXTRAP_BIN" <<'PYEOF'
import json, statistics, subprocess, sys, time, glob, os

extrap_bin = sys.argv[1]
vates = "target/release/vates"
expected = json.load(open("crates/fit/tests/data/extrap/expected.json"))["files"]

def timed(cmd):
    ts, out = [], None
    for _ in range(3):
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), out

def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(b), 1e-9)

def key(factors):
    return tuple(sorted((f["param"], f["poly"], f["log"]) for f in factors))

def frac(v):
    return str(v[0]) if v[1] == 1 else f"{v[0]}/{v[1]}"

total_e = total_v = 0.0
agree_all = 0
print(f"{'file':40} {'models':>6} {'agree':>5} {'live':>4} {'Extra-P s':>9} {'vates s':>8} {'ratio':>7}")
for path in sorted(glob.glob("crates/fit/tests/data/extrap/*.txt")):
    name = os.path.basename(path)
    te, out_e = timed([extrap_bin, "--text", path, "--print", "functions", "--disable-progress"])
    tv, out_v = timed([vates, "fit", path, "--modeler", "extrap", "--bootstrap", "0", "--format", "json"])
    got = json.loads(out_v)["models"]
    want = expected[name]["models"]
    printed = [l.strip() for l in out_e.splitlines() if l.strip()]
    # The live Extra-P prints the functions expected.json holds.
    live = sorted(printed) == sorted(w["function"] for w in want)
    agree = 0
    for w in want:
        g = next(m for m in got if m["callpath"] == w["callpath"] and m["metric"] == w["metric"])
        gt = {key(t["factors"]): t["coefficient"] for t in g["model"]["terms"]}
        wt = {tuple(sorted((f["parameter"], frac(f["poly"]), frac(f["log"])) for f in t["factors"])): t["coefficient"] for t in w["terms"]}
        same = gt.keys() == wt.keys() and all(close(gt[k], wt[k]) for k in wt) and close(g["model"]["constant"], w["constant"])
        # Hypotheses equal on every point tie up to rounding (2_param_add.txt): same SMAPE.
        same = same or close(g["smape"], w["smape"], 1e-9)
        agree += same
    agree_all += agree
    total_e += te
    total_v += tv
    print(f"{name:40} {len(want):6} {agree:5} {'yes' if live else 'NO':>4} {te:9.3f} {tv:8.4f} {te / tv:7.0f}")
print(f"{'total':40} {sum(len(v['models']) for v in expected.values()):6} {agree_all:5} {'':>4} {total_e:9.3f} {total_v:8.4f} {total_e / total_v:7.0f}")
PYEOF
