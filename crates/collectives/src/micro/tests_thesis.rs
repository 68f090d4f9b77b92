//! Chapter 2's derived tables recomputed from its printed ones (as
//! `bench/macdonald/check_ch2.py` does): Tables 2-8/2-9 from 2-7, 2-15/2-16 from 2-14, the
//! Mflop/s baselines 2-11/2-17, the recount of fragment E, the worked example R2-2.

use super::fragments::THESIS;
use super::predict::{Cell, Comparison, Summary};
use super::thesis::*;
use super::*;

/// Table 2-6's counts at `n` for fragment `k`, as printed (E's "n − 2", "n − 1").
fn printed_counts(k: usize, n: i64) -> [f64; 9] {
    TABLE_2_6.map(|row| (row[k].0 * n + row[k].1) as f64)
}

/// The cells of Table 2-7 (or 2-14): the prediction of Eq 2.2 from the printed operation
/// times and counts, the measured time implied by the printed difference.
fn cells(
    times: &[[f64; 3]; 9],
    diffs: &[[[f64; 3]; 5]; 6],
    counts: impl Fn(usize, i64) -> [f64; 9],
) -> Comparison {
    let mut out = Comparison::default();
    for (k, src) in THESIS.iter().enumerate() {
        for (j, &n) in LENGTHS.iter().enumerate() {
            for (i, platform) in PLATFORMS.iter().enumerate() {
                let t = OpTimes::from_micros(times.map(|r| r[i]));
                let predicted = t.time(&counts(k, n));
                out.cells.push(Cell {
                    fragment: src.name.into(),
                    n,
                    column: platform.to_string(),
                    predicted,
                    measured: predicted / (1.0 + diffs[k][j][i] / 100.0),
                });
            }
        }
    }
    out
}

/// Rounds as the thesis prints: whole percent.
fn printed(s: &Summary) -> [f64; 4] {
    s.row().map(f64::round)
}

#[test]
fn table_2_8_by_fragment_from_table_2_7() {
    let c = cells(&TABLE_2_5, &TABLE_2_7, printed_counts);
    let got = c.by_fragment();
    assert_eq!(got.len(), 6);
    for (k, (name, s)) in got.iter().enumerate() {
        let mut want = TABLE_2_8[k];
        if name == "C" {
            // Printed SD 31; the magnitudes give 12.9: a transposed "13".
            assert!((s.magnitude.sd - 12.9).abs() < 0.05, "{}", s.magnitude.sd);
            want[3] = 13.0;
        }
        assert_eq!(printed(s), want, "Table 2-8, fragment {name}");
    }
}

#[test]
fn table_2_9_by_platform_from_table_2_7() {
    let got = cells(&TABLE_2_5, &TABLE_2_7, printed_counts).by_column();
    for (i, (name, s)) in got.iter().enumerate() {
        assert_eq!(name, PLATFORMS[i]);
        assert_eq!(printed(s), TABLE_2_9[i], "Table 2-9, {name}");
    }
    // The unoptimised average magnitudes the measurements here are set beside.
    let avg: Vec<f64> = got
        .iter()
        .map(|(_, s)| (s.magnitude.mean * 10.0).round() / 10.0)
        .collect();
    assert_eq!(avg, [19.3, 18.6, 20.5]);
}

#[test]
fn tables_2_15_and_2_16_from_table_2_14() {
    let c = cells(&TABLE_2_13, &TABLE_2_14, printed_counts);
    for (k, (name, s)) in c.by_fragment().iter().enumerate() {
        let mut want = TABLE_2_15[k];
        if name == "A" || name == "B" {
            // Averages 51.53 and 45.53 printed 51 and 45: within the ±0.5 that Table 2-14's
            // whole percentages leave (the thesis averaged unrounded differences).
            assert!(
                (s.magnitude.mean - want[2]).abs() < 0.55,
                "{name}: {}",
                s.magnitude.mean
            );
            want[2] += 1.0;
        }
        assert_eq!(printed(s), want, "Table 2-15, fragment {name}");
    }
    for (i, (name, s)) in c.by_column().iter().enumerate() {
        assert_eq!(printed(s), TABLE_2_16[i], "Table 2-16, {name}");
    }
    // Population SD: fragment A's is 51.0 (printed 51); the sample SD would be 52.8.
    let a = c.summary(|c| c.fragment == "A").unwrap();
    assert!((a.magnitude.sd - 51.0).abs() < 0.05);
}

/// The Mflop/s baseline of `c`: Table 2-10's printed flops over the column's geometric mean.
fn baseline(c: &Comparison, geo: [f64; 3]) -> Comparison {
    c.baseline(
        |cell| {
            let k = THESIS.iter().position(|s| s.name == cell.fragment).unwrap();
            (TABLE_2_10[k].0 * cell.n + TABLE_2_10[k].1) as f64
        },
        |cell| geo[PLATFORMS.iter().position(|p| *p == cell.column).unwrap()],
    )
}

#[test]
fn table_2_11_flop_rate_baseline_unoptimised() {
    let c = baseline(
        &cells(&TABLE_2_5, &TABLE_2_7, printed_counts),
        TABLE_2_1_GEOMEAN,
    );
    for (i, (name, s)) in c.by_column().iter().enumerate() {
        let got = printed(s);
        // ±1: the measured times are implied by Table 2-7's whole percentages.
        for (g, w) in got.iter().zip(TABLE_2_11[i]) {
            assert!(
                (g - w).abs() <= 1.0,
                "Table 2-11, {name}: {got:?} vs {:?}",
                TABLE_2_11[i]
            );
        }
    }
    let sun = printed(&c.by_column()[0].1);
    assert_eq!(sun, TABLE_2_11[0], "Table 2-11, SUN 4/50 row exactly");
}

#[test]
fn table_2_17_flop_rate_baseline_optimised() {
    let c = baseline(
        &cells(&TABLE_2_13, &TABLE_2_14, printed_counts),
        TABLE_2_12_GEOMEAN,
    );
    let rows = c.by_column();
    // SGI Indigo2 reproduces exactly.
    assert_eq!(
        printed(&rows[2].1),
        TABLE_2_17[2],
        "Table 2-17, SGI Indigo2"
    );
    // SUN and DEC do not (NOTES.md §6: cause unknown, no single scale factor): recomputed
    // 81/−65/35/25 and 326/−88/77/65 against printed 119/−53/47/38 and 569/−77/99/135.
    assert_eq!(printed(&rows[0].1), [81., -65., 35., 25.]);
    assert_eq!(printed(&rows[1].1), [326., -88., 77., 65.]);
}

/// Lines 2452–2464: counting E with n loads instead of 2n − 1 "reduces the average error
/// magnitude from 30% to 19%".
#[test]
fn fragment_e_recount_30_to_19_percent() {
    let base = cells(&TABLE_2_5, &TABLE_2_7, printed_counts);
    let e = |c: &Cell| c.fragment == "E";
    let before = base.summary(e).unwrap().magnitude.mean;
    let loads = |c: &Comparison| {
        let mut c = c.clone();
        for cell in c.cells.iter_mut().filter(|c| c.fragment == "E") {
            let i = PLATFORMS.iter().position(|p| *p == cell.column).unwrap();
            let t_load = TABLE_2_5[Op::LoadR.index()][i] * 1e-6;
            // loadR 2n − 1 → n: n − 1 fewer loads.
            cell.predicted -= (cell.n - 1) as f64 * t_load;
        }
        c.summary(e).unwrap().magnitude.mean
    };
    assert_eq!((before * 10.0).round() / 10.0, 30.0);
    assert_eq!((loads(&base) * 10.0).round() / 10.0, 19.3);
    // The measured times stay those Table 2-7 implies (they were measured); predicted
    // with the counts the mapping derives for E (loopoh n − 1, storeR n) and n loads, the
    // average magnitude is 20.9 instead.
    let mapped = analyse_text("E", super::fragments::E.text).unwrap().counts;
    let mut c = base.clone();
    for cell in c.cells.iter_mut().filter(|c| c.fragment == "E") {
        let i = PLATFORMS.iter().position(|p| *p == cell.column).unwrap();
        let t = OpTimes::from_micros(TABLE_2_5.map(|r| r[i]));
        let mut counts = mapped.at(&[("N".into(), cell.n as f64)]).unwrap();
        counts[Op::LoadR.index()] = cell.n as f64;
        cell.predicted = t.time(&counts);
    }
    let recounted = c.summary(e).unwrap().magnitude.mean;
    assert_eq!((recounted * 10.0).round() / 10.0, 20.9);
}

/// Spec R2-2: fragment B on the SUN, unoptimised, costs per iteration
/// loopoh + 2 loadR + addR + multR = 0.808 µs (Table 2-5 × Table 2-6).
#[test]
fn r2_2_fragment_b_per_iteration_on_the_sun() {
    let b = analyse_text("B", super::fragments::B.text).unwrap();
    let sun = times(0, false).unwrap();
    assert_eq!(sun.get(Op::MultI), 4.42e-6);
    assert_eq!(times(1, true).unwrap().get(Op::StoreI), -0.00136e-6);
    assert!(times(3, false).is_none());
    let t1000 = predict::predict(&b.counts, &sun, &[("N".into(), 1000.0)]).unwrap();
    assert!((t1000 / 1000.0 * 1e6 - 0.80796).abs() < 1e-9, "{t1000}");
}
