#!/usr/bin/env python3
"""Generate Extra-P reference models for the `fit` crate's parity tests.

Run with the Python of a venv that has Extra-P 4.2.5 installed, e.g.

    python3 -m venv /tmp/extrap_venv && /tmp/extrap_venv/bin/pip install extrap==4.2.5
    /tmp/extrap_venv/bin/python bench/extrap_expected.py

Every ``*.txt`` file in ``crates/fit/tests/data/extrap/`` is read with Extra-P's
text reader and modelled with ``ModelGenerator(experiment)`` (the "Default"
modeler: Basic single-parameter modeler for one parameter, Multi-Parameter
modeler otherwise) and ``model_all()``. The result is written to
``crates/fit/tests/data/extrap/expected.json``; a one-line summary per model is
printed to stdout.
"""

import json
import math
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import extrap
from extrap.entities.functions import ConstantFunction, SegmentedFunction
from extrap.entities.terms import CompoundTerm, MultiParameterTerm
from extrap.fileio.file_reader.text_file_reader import TextFileReader
from extrap.modelers.model_generator import ModelGenerator

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / "crates" / "fit" / "tests" / "data" / "extrap"
OUT_FILE = DATA_DIR / "expected.json"
GENERATOR = "Extra-P 4.2.5 default modeler"


def exact(exponent):
    """Exponent (extrap Fraction, int or float) as [numerator, denominator]."""
    f = Fraction(exponent).limit_denominator(1000)
    if not math.isclose(float(f), float(exponent), rel_tol=0, abs_tol=1e-12):
        raise ValueError(f"exponent {exponent!r} is not a simple fraction")
    return [f.numerator, f.denominator]


def num(x):
    """Plain Python float; non-finite values become null (JSON has no NaN/inf)."""
    x = float(x)
    return x if math.isfinite(x) else None


def factor(parameter_name, compound_term):
    """One parameter's factor p^(poly) * log2(p)^(log) of a CompoundTerm."""
    out = {"parameter": parameter_name, "poly": [0, 1], "log": [0, 1]}
    seen = set()
    for st in compound_term.simple_terms:
        if st.term_type == "polynomial":
            key = "poly"
        elif st.term_type == "logarithm":
            key = "log"
        else:
            raise ValueError(f"unknown term type {st.term_type!r}")
        if key in seen:
            raise ValueError(f"compound term with two {key} factors: {compound_term}")
        seen.add(key)
        out[key] = exact(st.exponent)
    return out


def terms_of(function, parameter_names):
    if isinstance(function, SegmentedFunction):
        raise ValueError("segmented function; not supported by this exporter")
    if isinstance(function, ConstantFunction):
        return []
    terms = []
    for ct in function.compound_terms:
        if isinstance(ct, MultiParameterTerm):
            coefficient = float(ct.coefficient)
            factors = []
            for idx, inner in ct.parameter_term_pairs:
                if not isinstance(inner, CompoundTerm):
                    raise ValueError(f"unexpected inner term {inner!r}")
                # MultiParameterTerm.evaluate multiplies the inner terms' own
                # coefficients too (normally 1); fold them in.
                coefficient *= float(inner.coefficient)
                factors.append(factor(parameter_names[idx], inner))
        elif isinstance(ct, CompoundTerm):
            if len(parameter_names) != 1:
                raise ValueError("single-parameter term in multi-parameter experiment")
            coefficient = float(ct.coefficient)
            factors = [factor(parameter_names[0], ct)]
        else:
            raise ValueError(f"unexpected term {ct!r}")
        terms.append({"coefficient": num(coefficient), "factors": factors})
    return terms


def model_file(path):
    experiment = TextFileReader().read_experiment(path)
    parameter_names = [str(p) for p in experiment.parameters]
    generator = ModelGenerator(experiment)
    generator.model_all()
    models = []
    for (callpath, metric), model in generator.models.items():
        hyp = model.hypothesis
        fn = hyp.function
        entry = {
            "callpath": callpath.name,
            "metric": metric.name,
            "function": fn.to_string(*experiment.parameters),
            "constant": num(fn.constant_coefficient),
            "terms": terms_of(fn, parameter_names),
            "rss": num(hyp.RSS),
            "smape": num(hyp.SMAPE),
            "ar2": num(hyp.AR2),
        }
        models.append(entry)
    return generator.modeler.NAME, {"parameters": parameter_names, "models": models}


def main():
    version = getattr(extrap, "__version__", "?")
    if version != "4.2.5":
        print(f"warning: running Extra-P {version}, expected 4.2.5", file=sys.stderr)
    files = sorted(DATA_DIR.glob("*.txt"))
    result = {"generator": GENERATOR, "files": {}}
    failed = []
    for path in files:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                modeler_name, data = model_file(path)
            except Exception as e:  # report and continue
                failed.append((path.name, f"{type(e).__name__}: {e}"))
                print(f"{path.name}: FAILED {type(e).__name__}: {e}", file=sys.stderr)
                continue
        kinds = sorted({f"{w.category.__name__}: {str(w.message).splitlines()[0][:80]}" for w in caught})
        for k in kinds:
            print(f"{path.name}: python warning {k}", file=sys.stderr)
        result["files"][path.name] = data
        for m in data["models"]:
            print(f"{path.name} [{modeler_name}] {m['callpath']} / {m['metric']}: {m['function']}"
                  f"  (RSS={m['rss']:.6g}, SMAPE={m['smape']:.6g}, AR2={m['ar2']:.6g})")
    with open(OUT_FILE, "w") as fh:
        json.dump(result, fh, indent=1, allow_nan=False)
        fh.write("\n")
    print(f"wrote {OUT_FILE.relative_to(REPO_ROOT)}: {len(result['files'])} files, "
          f"{sum(len(f['models']) for f in result['files'].values())} models", file=sys.stderr)
    if failed:
        for name, why in failed:
            print(f"failed: {name}: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
