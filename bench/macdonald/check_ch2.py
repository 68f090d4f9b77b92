#!/usr/bin/env python3
"""Chapter 2 of MacDonald's thesis: recompute every printed result that the
printed numbers allow (pure python).

  * Tables 2-8/2-9 (summaries by fragment / platform) from Table 2-7;
    Tables 2-15/2-16 from Table 2-14  -> also settles population vs sample SD.
  * Table 2-1 / 2-12 ratio rows from their Mflop/s rows.
  * Fragment E re-count (text, line 2460: "reduces the average error magnitude
    from 30% to 19%") from Tables 2-5, 2-6, 2-7.
  * Tables 2-11 / 2-17 (Mflop-rate predictions) approximately, from Tables 2-1/2-12
    (geometric means), 2-10 (flop counts), and the measured times implied by
    Tables 2-5/2-13 x 2-6 and the percentage differences of Tables 2-7/2-14.
Numbers are transcribed from seeds/004_81494c10101aef44.txt (line numbers in comments).
"""
import math

PLAT = ["SUN 4/50", "DEC 3300L", "SGI Indigo2"]
FRAG = "ABCDEF"
NS = [10, 100, 1000, 10000, 100000]

# Table 2-7 (lines 2310-2368): signed prediction differences (%), unoptimised code
T27 = {
    "A": [(-18, -14, -3), (-16, -11, +2), (-15, -11, -1), (-25, -13, -15), (-24, -26, -25)],
    "B": [(-17, -18, +2), (-8, -12, +11), (-6, -13, +11), (-20, -15, -10), (-21, -29, -33)],
    "C": [(+19, +28, +17), (+31, +41, +26), (+33, +43, +21), (+3, +10, -4), (+1, +9, -19)],
    "D": [(-31, +31, -5), (-30, +33, -3), (-29, +34, -5), (-35, +22, -18), (-35, +22, -31)],
    "E": [(+26, +16, +55), (+40, +29, +74), (+41, +30, +76), (+14, +5, +26), (+9, +1, +8)],
    "F": [(-1, +9, -17), (+4, +14, -14), (+4, +14, -16), (-10, -1, -30), (-14, -5, -38)],
}
# Table 2-14 (lines 2662-2720): optimised code.  OCR readings: D 100000 SUN "-4-43" -> +43;
# F 100 SUN "-4-46" -> +46 ("-4-" is the OCR of "+"); C 10000 DEC "754" -> -54
# ("7" for "-"); "B 1000" at line 2706 is row E 1000; B 100 DEC "-0" kept as 0.
T214 = {
    "A": [(+16, +73, +55), (+24, +203, +108), (+24, +52, +96), (+4, +5, +47), (+2, -36, +28)],
    "B": [(+51, -32, +28), (+72, 0, +103), (+67, -36, +108), (+7, -51, +18), (-5, -67, -38)],
    "C": [(+9, -25, +17), (+19, -18, +69), (+21, -40, +60), (-21, -54, +9), (-25, -71, -13)],
    "D": [(+63, +154, +40), (+65, +270, +44), (+65, +139, +39), (+43, +98, +26), (+43, +42, +8)],
    "E": [(+8, -3, +17), (+17, +8, +87), (+19, -25, +98), (-21, -52, +15), (-24, -72, +15)],
    "F": [(+40, -12, +39), (+46, 0, +80), (+45, -19, +74), (+14, -29, +30), (0, -61, +11)],
}
# Printed summaries: (max, min, avg magnitude, sd magnitude)
T28 = {"A": (2, -26, 15, 8), "B": (11, -33, 15, 8), "C": (43, -19, 20, 31), "D": (34, -35, 24, 11),
       "E": (76, 1, 30, 23), "F": (14, -38, 13, 10)}                       # lines 2381-2387
T29 = {"SUN 4/50": (41, -35, 19, 12), "DEC 3300L": (43, -29, 19, 11), "SGI Indigo2": (76, -38, 21, 19)}  # 2397-2403 ("-i-43" = +43)
T215 = {"A": (203, -36, 51, 51), "B": (108, -67, 45, 32), "C": (69, -71, 31, 21), "D": (270, 8, 76, 65),
        "E": (98, -72, 32, 29), "F": (80, -61, 33, 24)}                    # lines 2727-2733
T216 = {"SUN 4/50": (72, -25, 29, 21), "DEC 3300L": (270, -72, 58, 60), "SGI Indigo2": (108, -38, 47, 32)}  # 2753-2759
T211 = {"SUN 4/50": (254, -30, 84, 77), "DEC 3300L": (251, -30, 73, 76), "SGI Indigo2": (201, -53, 51, 59)}  # 2530-2536
T217 = {"SUN 4/50": (119, -53, 47, 38), "DEC 3300L": (569, -77, 99, 135), "SGI Indigo2": (111, -40, 42, 29)}  # 2768-2774

# Table 2-1 (lines 1755-1763) and Table 2-12 (lines 2544-2552): max, geo, min, max/geo, min/geo
T21 = {"SUN 4/50": (4.06, 1.51, 0.74, 2.68, 0.49), "DEC 3300L": (4.09, 1.52, 0.58, 2.69, 0.38),
       "SGI Indigo2": (19.82, 7.17, 2.46, 2.76, 0.34)}
T212 = {"SUN 4/50": (10.16, 4.10, 1.41, 2.48, 0.34), "DEC 3300L": (46.25, 12.77, 3.54, 3.62, 0.27),
        "SGI Indigo2": (43.87, 18.85, 5.54, 2.33, 0.29)}

# Table 2-5 (lines 2090-2106) and 2-13 (lines 2607-2623): basic op times (us)
OPS = ["loopoh", "loadI", "storeI", "addI", "multI", "loadR", "storeR", "addR", "multR"]
T25 = {"loopoh": (0.518, 0.273, 0.230), "loadI": (0.168, 0.244, 0.0305), "storeI": (0.159, 0.159, 0.0188),
       "addI": (0.0905, 0.0325, 0.00297), "multI": (4.42, 0.156, 0.0680), "loadR": (0.135, 0.201, 0.0255),
       "storeR": (0.235, 0.172, 0.0326), "addR": (0.0108, 0.106, 0.00744), "multR": (0.00916, 0.116, 0.0208)}
T213 = {"loopoh": (0.0972, 0.0232, 0.0222), "loadI": (0.0367, 0.0250, 0.0148), "storeI": (0.109, -0.00136, 0.0112),
        "addI": (0.0566, 0.0175, 0.0113), "multI": (4.41, 0.132, 0.0754), "loadR": (0.0342, 0.0220, 0.00226),
        "storeR": (0.179, 0.0637, 0.0236), "addR": (0.185, 0.0501, 0.0393), "multR": (0.186, 0.0504, 0.0433)}
# Table 2-6 (lines 2202-2218): counts as (a, b) meaning a*n + b; E loopoh printed "n - 2".
T26 = {
    "loopoh": {"A": (1, 0), "B": (1, 0), "C": (1, -1), "D": (1, 0), "E": (1, -2), "F": (2, 0)},
    "loadI": {f: (0, 0) for f in FRAG}, "storeI": {f: (0, 0) for f in FRAG},
    "addI": {"A": (0, 0), "B": (0, 0), "C": (0, 0), "D": (0, 0), "E": (0, 0), "F": (2, 0)},
    "multI": {f: (0, 0) for f in FRAG},
    "loadR": {"A": (3, 0), "B": (2, 0), "C": (3, -3), "D": (9, 0), "E": (2, -1), "F": (6, 0)},
    "storeR": {"A": (1, 0), "B": (0, 0), "C": (1, -1), "D": (1, 0), "E": (1, -1), "F": (2, 0)},
    "addR": {"A": (2, 0), "B": (1, 0), "C": (1, -1), "D": (8, 0), "E": (1, -1), "F": (4, 0)},
    "multR": {"A": (3, 0), "B": (1, 0), "C": (1, -1), "D": (8, 0), "E": (0, 0), "F": (2, 0)},
}
# Table 2-10 (lines 2467-2477): flop counts (a, b) = a*n + b
T210 = {"A": (5, 0), "B": (2, 0), "C": (2, 0), "D": (16, 0), "E": (1, -1), "F": (6, 0)}


def stats(v, sample=False):
    a = [abs(x) for x in v]
    m = sum(a) / len(a)
    var = sum((x - m) ** 2 for x in a) / (len(a) - (1 if sample else 0))
    return max(v), min(v), m, math.sqrt(var)


def fmt(s):
    return "%+4.0f %+4.0f %5.1f %5.1f" % s


def summaries(tab, by_frag, by_plat, label):
    print(f"\n== {label}: summary by fragment / by platform  (max, min, avg |d|, sd |d| pop / sample)")
    for f in FRAG:
        v = [row[i] for row in tab[f] for i in range(3)]
        pop, smp = stats(v), stats(v, True)
        print(f"  {f}: printed {by_frag[f]}  recomputed {fmt(pop)} | sample sd {smp[3]:.1f}")
    for i, pl in enumerate(PLAT):
        v = [row[i] for f in FRAG for row in tab[f]]
        pop, smp = stats(v), stats(v, True)
        print(f"  {pl:12s}: printed {by_plat[pl]}  recomputed {fmt(pop)} | sample sd {smp[3]:.1f}")


def pred(times, f, n, i, override=None):
    t = 0.0
    for op in OPS:
        a, b = T26[op][f]
        if override and op in override:
            a, b = override[op]
        t += (a * n + b) * times[op][i]
    return t


def main():
    summaries(T27, T28, T29, "Table 2-7 -> Tables 2-8 / 2-9 (unoptimised)")
    summaries(T214, T215, T216, "Table 2-14 -> Tables 2-15 / 2-16 (optimised)")

    print("\n== Table 2-1 / 2-12 ratio rows (printed -> recomputed max/geo, min/geo)")
    for name, tab in (("2-1", T21), ("2-12", T212)):
        for pl, (mx, g, mn, rmx, rmn) in tab.items():
            print(f"  Table {name} {pl:12s}: {rmx:.2f} -> {mx / g:.3f}   {rmn:.2f} -> {mn / g:.3f}")

    print("\n== Fragment E with n loads instead of 2n-1 (text line 2460: 30% -> 19%)")
    old, new = [], []
    for k, n in enumerate(NS):
        for i in range(3):
            p = pred(T25, "E", n, i)
            meas = p / (1 + T27["E"][k][i] / 100.0)
            p2 = pred(T25, "E", n, i, {"loadR": (1, 0)})
            old.append((p - meas) / meas * 100)
            new.append((p2 - meas) / meas * 100)
    print("  avg |d| with printed counts: %.1f%% (printed 30%%);  with loadR = n: %.1f%% (printed 19%%)"
          % (stats(old)[2], stats(new)[2]))

    for label, times, diffs, geo, printed in (
            ("Table 2-11 (unoptimised, Mflop/s geo-mean)", T25, T27, T21, T211),
            ("Table 2-17 (optimised, Mflop/s geo-mean)", T213, T214, T212, T217)):
        print(f"\n== {label}: measured times implied by micro-analysis predictions and Table diffs")
        for i, pl in enumerate(PLAT):
            v = []
            for f in FRAG:
                for k, n in enumerate(NS):
                    meas = pred(times, f, n, i) / (1 + diffs[f][k][i] / 100.0)
                    a, b = T210[f]
                    mflop_pred = (a * n + b) / geo[pl][1]          # flops / (Mflop/s) = us
                    v.append((mflop_pred - meas) / meas * 100)
            print(f"  {pl:12s}: printed {printed[pl]}  recomputed {fmt(stats(v))}")


if __name__ == "__main__":
    main()
