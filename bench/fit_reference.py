#!/usr/bin/env python3
"""Reference numbers for crates/fit/tests/reference.rs, from numpy, scipy and scikit-learn.

Optional to run (python3 -m pip install numpy scipy scikit-learn); the tests hold the
numbers it printed. Run: python3 bench/fit_reference.py
"""
import numpy as np
from scipy.optimize import nnls
from sklearn.metrics import r2_score

np.set_printoptions(precision=17)


def show(name, values):
    print(f"{name}: [{', '.join(repr(float(v)) for v in np.ravel(values))}]")


x = np.array([1.0, 2, 4, 8, 16, 32])
noise = np.array([0.3, -0.2, 0.1, -0.4, 0.2, -0.1])
y = 200 + 10 * x * np.log2(x) + noise
X = np.column_stack([np.ones_like(x), x, x * np.log2(x)])
coef, rss, rank, sv = np.linalg.lstsq(X, y, rcond=None)
print("# ols: basis [1, x, x*log2(x)], y = 200 + 10 x log2 x + noise")
show("ols_coef", coef)
show("ols_rss", rss)
print("ols_rank:", rank)
show("ols_r2", [r2_score(y, X @ coef)])

A = np.array([[1.0, 0.5, 2.0], [0.3, 1.0, 0.1], [2.0, 0.2, 0.7], [0.1, 0.9, 1.5], [1.2, 1.1, 0.4]])
b = np.array([1.0, -2.0, 3.0, 0.5, 1.0])
xs, rn = nnls(A, b)
print("# nnls 1: A 5x3, b with a negative entry")
show("nnls1_x", xs)
show("nnls1_rnorm", [rn])
show("nnls1_lstsq", np.linalg.lstsq(A, b, rcond=None)[0])

A2 = np.array([[1.0, 1, 1, 1], [1, 2, 4, 8], [1, 3, 9, 27], [1, 4, 16, 64], [1, 5, 25, 125], [1, 6, 36, 216]])
b2 = np.array([10.0, 7.0, 9.0, 20.0, 41.0, 80.0])
xs, rn = nnls(A2, b2)
print("# nnls 2: cubic polynomial basis at x = 1..6")
show("nnls2_x", xs)
show("nnls2_rnorm", [rn])
