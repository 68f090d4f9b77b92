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

# ---- Lasso-LARS (scikit-learn) ----
from sklearn.linear_model import LassoLarsCV, lars_path

rng = np.random.RandomState(3)
Xl = rng.uniform(1, 10, size=(30, 6))
yl = Xl @ np.array([2.0, 0.0, -1.5, 0.3, 0.0, 0.0]) + 3.0 + rng.normal(0, 6.0, 30)
print("# lars: X = RandomState(3).uniform(1, 10, (30, 6)), y = X @ [2, 0, -1.5, 0.3, 0, 0] + 3 + N(0, 6)")
print("lars_X:", repr([list(map(float, r)) for r in Xl]))
show("lars_y", yl)
Xc = Xl - Xl.mean(axis=0)
yc = yl - yl.mean()
for positive in (False, True):
    alphas, active, coefs = lars_path(Xc, yc, method="lasso", positive=positive)
    tag = "pos" if positive else "any"
    show(f"path_{tag}_alphas", alphas)
    show(f"path_{tag}_coefs_last", coefs[:, -1])
    show(f"path_{tag}_coefs_1", coefs[:, 1])
for positive in (False, True):
    for fit_intercept in (True, False):
        m = LassoLarsCV(cv=5, positive=positive, fit_intercept=fit_intercept).fit(Xl, yl)
        tag = ("pos" if positive else "any") + ("_icpt" if fit_intercept else "_noicpt")
        show(f"cv_{tag}_alpha", [m.alpha_])
        show(f"cv_{tag}_coef", m.coef_)
        show(f"cv_{tag}_intercept", [m.intercept_])

# A path on which a variable leaves the model (the Lasso modification of LARS).
rng = np.random.RandomState(4)
Xd = rng.normal(size=(12, 4))
Xd[:, 3] = Xd[:, 0] + 0.3 * Xd[:, 1] + 0.1 * rng.normal(size=12)
yd = Xd @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(size=12)
Xd = Xd - Xd.mean(axis=0)
yd = yd - yd.mean()
print("drop_X:", repr([list(map(float, r)) for r in Xd]))
show("drop_y", yd)
alphas, active, coefs = lars_path(Xd, yd, method="lasso")
show("drop_alphas", alphas)
for k in range(coefs.shape[1]):
    show(f"drop_coefs_{k}", coefs[:, k])
