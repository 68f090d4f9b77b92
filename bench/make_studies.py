#!/usr/bin/env python3
"""Builds examples/studies/<name>/ from the committed measurements of the nine real
programs: the six BOTS kernels (examples/taskpar/{train,test}.csv, recorded by
bench/taskpar_real.sh) and the three semi-empirical programs
(examples/semi/<name>_{samples,measured}.csv). Each study is a folder `vates compare`
reads: campaign.toml (how the runs were made), train-times.csv and test-times.csv
(the untraced times), and the method inputs (taskpar training rows; semi samples, the
machine profile and the thread graph's path).

Run from the repository's root: python3 bench/make_studies.py
"""
import csv
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "examples", "studies")
KERNELS = ["fft", "fib", "nqueens", "sort", "sparselu", "strassen"]
# Work exponential in n: the two-step model's size transform (bench/taskpar_real.sh).
TRANSFORM = {"fib": "n=2^n", "nqueens": "n=2^n"}
SEMI = {"queue": ("W", "queue"), "apsp": ("N", "apsp"), "ge": ("N", "ge")}


def num(v):
    f = float(v)
    return str(int(f)) if f == int(f) else repr(f)


def toml_list(values):
    return "[" + ", ".join(num(v) for v in values) + "]"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def kernels():
    rows = {s: list(csv.DictReader(open(os.path.join(ROOT, "examples/taskpar", s + ".csv")))) for s in ("train", "test")}
    header = open(os.path.join(ROOT, "examples/taskpar/train.csv")).readline()
    for k in KERNELS:
        d = os.path.join(OUT, k)
        os.makedirs(d, exist_ok=True)
        sets = {}
        for s in ("train", "test"):
            mine = [r for r in rows[s] if r["app"] == k]
            sets[s] = mine
            cols = header.strip().split(",")
            body = "".join(",".join(r[c] for c in cols) + "\n" for r in mine)
            write(os.path.join(d, s + ".csv"), header + body)
            times = "n,p,seconds\n" + "".join(
                f"{r['n']},{r['p']},{r['elapsed_untraced'] or r['elapsed']}\n" for r in mine)
            write(os.path.join(d, s + "-times.csv"), times)
        sizes = {s: sorted({float(r["n"]) for r in sets[s]}) for s in sets}
        workers = {s: sorted({int(float(r["p"])) for r in sets[s]}) for s in sets}
        reps = {s: max(int(float(r["rep"])) for r in sets[s]) + 1 for s in sets}
        compare = f'\n[compare]\ntransform = "{TRANSFORM[k]}"\n' if k in TRANSFORM else ""
        write(os.path.join(d, "campaign.toml"), f"""# The BOTS kernel {k} in Rust on rayon, recorded by taskrec (bench/taskpar_real.sh,
# 2026-11-26); made into this study by bench/make_studies.py.
name = "{k}"
command = "target/release/bots {k} {{n}}"
runtime = "rayon"

[train]
sizes = {toml_list(sizes['train'])}
workers = {toml_list(workers['train'])}
repetitions = {reps['train']}

[test]
sizes = {toml_list(sizes['test'])}
workers = {toml_list(workers['test'])}
repetitions = {reps['test']}

[keep]
profile = "none"
{compare}""")


def semi():
    for name, (size, model) in SEMI.items():
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        samples = list(csv.DictReader(open(os.path.join(ROOT, "examples/semi", name + "_samples.csv"))))
        measured = list(csv.DictReader(open(os.path.join(ROOT, "examples/semi", name + "_measured.csv"))))
        shutil.copy(os.path.join(ROOT, "examples/semi", name + "_samples.csv"), os.path.join(d, "train-samples.csv"))
        runs = [r for r in samples if r["segment"] == "run"]
        write(os.path.join(d, "train-times.csv"), f"{size},P,seconds\n" + "".join(
            f"{r[size]},{r['P']},{r['seconds']}\n" for r in runs))
        write(os.path.join(d, "test-times.csv"), f"{size},P,seconds\n" + "".join(
            f"{r[size]},{r['P']},{r['seconds']}\n" for r in measured))
        shutil.copy(os.path.join(ROOT, "examples/semi/machine.json"), os.path.join(d, "machine.json"))
        train_sizes = sorted({float(r[size]) for r in runs})
        test_sizes = sorted({float(r[size]) for r in measured})
        ps = sorted({int(float(r["P"])) for r in runs})
        tps = sorted({int(float(r["P"])) for r in measured})
        reps = max(int(float(r["rep"])) for r in runs) + 1
        treps = max(int(float(r["rep"])) for r in measured) + 1
        write(os.path.join(d, "campaign.toml"), f"""# {name} with per-thread segment timers (crates/threadprogs), the samples and measured
# runs of examples/semi/; made into this study by bench/make_studies.py.
name = "{name}"
command = "target/release/threadprogs {name} {{n}} {{p}}"
runtime = "threads"

[names]
size = "{size}"
workers = "P"

[train]
sizes = {toml_list(train_sizes)}
workers = {toml_list(ps)}
repetitions = {reps}

[test]
sizes = {toml_list(test_sizes)}
workers = {toml_list(tps)}
repetitions = {treps}

[keep]
profile = "none"

[compare]
semi_model = "../../semi/{model}.tg"
""")


if __name__ == "__main__":
    kernels()
    semi()
