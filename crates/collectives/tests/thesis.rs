//! MacDonald's thesis, chapter 3: equations 3.6–3.20 refitted from the printed Tables 3-1 to
//! 3-15 (`bench/macdonald/tables`, transcribed from the seed with every OCR reading listed
//! in `bench/macdonald/NOTES.md` §7), and their stated average prediction differences.
//!
//! Coefficients are checked to half a unit of the last printed digit; differences to ±1
//! point of the stated whole percentage. Where the print cannot be reproduced the test says
//! why and pins what the printed table does give, so a change in the fitting shows.

use collectives::model::{fit_form, fit_group, Criterion, Fitting, Options};
use collectives::table::{Group, Statistic};
use collectives::{read_csv, Difference, Form, Table};

fn table(k: u32) -> Table {
    let path = format!(
        "{}/../../bench/macdonald/tables/table_3_{k}.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the thesis' tables");
    read_csv(&path, &text).expect("a readable table")
}

fn group(t: &Table) -> Group {
    let mut g = t.groups();
    assert_eq!(g.len(), 1, "one operation per table");
    g.remove(0)
}

/// The table with the cell at `(p, d)` set to `time` (a datum the author fitted that differs
/// from the printed one).
fn corrected(mut t: Table, fixes: &[(u32, f64, f64)]) -> Table {
    for &(p, d, time) in fixes {
        let row = t
            .rows
            .iter_mut()
            .find(|r| r.p == p && r.d == Some(d))
            .expect("the corrected cell exists");
        row.time = time;
    }
    t
}

/// Half a unit of the last digit of a printed number.
fn half_digit(printed: &str) -> f64 {
    let decimals = printed.split('.').nth(1).map_or(0, str::len);
    0.5 * 10f64.powi(-(decimals as i32))
}

/// Checks a fit of `form` to `t` against the printed coefficients (in the form's term order).
fn coefficients_as_printed(t: &Table, form: &str, printed: &[&str]) {
    let c = fit_form(
        &group(t),
        Form::named(form).unwrap(),
        Statistic::Mean,
        Fitting::Absolute,
        1,
    )
    .unwrap();
    for (k, (got, want)) in c.coefficients().iter().zip(printed).enumerate() {
        let w: f64 = want.parse().unwrap();
        assert!(
            (got - w).abs() <= half_digit(want),
            "term {} ({}): fitted {got}, printed {want}",
            k,
            c.form.terms[k].text()
        );
    }
}

/// The difference of the printed equation (coefficients in `form`'s order) on table `t`.
fn printed_difference(t: &Table, form: &str, printed: &[f64]) -> Difference {
    let f = Form::named(form).unwrap();
    Difference::of(
        t.rows
            .iter()
            .map(|r| (f.eval(printed, f64::from(r.p), r.d.unwrap_or(0.0)), r.time)),
    )
}

fn within_a_point(d: Difference, apd: f64, sd: Option<f64>) {
    assert!(
        (d.mean - apd).abs() <= 1.0,
        "APD {} against the stated {apd}",
        d.mean
    );
    if let Some(sd) = sd {
        assert!(
            (d.sd - sd).abs() <= 1.0,
            "SD {} against the stated {sd}",
            d.sd
        );
    }
}

#[test]
fn eq_3_6_barrier_t3d_table_3_1_is_the_mean() {
    let t = table(1);
    coefficients_as_printed(&t, "constant", &["7.3635"]);
    within_a_point(
        printed_difference(&t, "constant", &[7.3635]),
        4.0,
        Some(2.0),
    );
}

#[test]
fn eq_3_7_barrier_meiko_table_3_2() {
    let t = table(2);
    coefficients_as_printed(&t, "log", &["7710", "7834"]);
    within_a_point(
        printed_difference(&t, "log", &[7710.0, 7834.0]),
        5.0,
        Some(3.0),
    );
}

#[test]
fn eq_3_8_barrier_workstations_table_3_3_with_intercept_3205() {
    // Printed `2305 + 2800p`: the fit gives 3204.786, and only 3205 gives the stated 4%/3%
    // (2305 gives 6.8%): a transposition in the print.
    let t = table(3);
    coefficients_as_printed(&t, "linear", &["3205", "2800"]);
    within_a_point(
        printed_difference(&t, "linear", &[3205.0, 2800.0]),
        4.0,
        Some(3.0),
    );
    let as_printed = printed_difference(&t, "linear", &[2305.0, 2800.0]);
    assert!(as_printed.mean > 6.0);
}

#[test]
fn eq_3_9_broadcast_t3d_table_3_4_fitted_with_173_2() {
    // The coefficients come out of Table 3-4 with p=2, d=100 = 173.2 (OCR `1712`, read
    // 171.2 as the digits say): the only one-digit change that gives all four.
    let fitted = corrected(table(4), &[(2, 100.0, 173.2)]);
    coefficients_as_printed(
        &fitted,
        "log-size",
        &["-86.0016", "232.4384", "-0.33357", "0.243861"],
    );
    // The stated 21% holds on the printed table; the stated SD (19%) does not: the model
    // is near zero or negative at p=2, d ≥ 1000 (differences of 78–243%), SD 49.9.
    let d = printed_difference(
        &table(4),
        "log-size",
        &[-86.0016, 232.4384, -0.33357, 0.243861],
    );
    within_a_point(d, 21.0, None);
    assert!((d.sd - 49.9).abs() < 0.1, "SD {}", d.sd);
}

#[test]
fn eq_3_10_broadcast_meiko_table_3_5_reading_9_814888() {
    // The print (OCR) has `0.9814888 d log2 p`; the fit and the stated 18%/15% need 9.814888.
    let t = table(5);
    coefficients_as_printed(
        &t,
        "log-size",
        &["10403.51", "795.3233", "-10.0613", "9.814888"],
    );
    let c = [10403.51, 795.3233, -10.0613, 9.814888];
    within_a_point(printed_difference(&t, "log-size", &c), 18.0, Some(15.0));
}

#[test]
fn eq_3_11_broadcast_workstations_table_3_6() {
    // Printed as t_barrier, in the broadcast section; terms reordered to 1, log p, d, d log p.
    let t = table(6);
    coefficients_as_printed(
        &t,
        "log-size",
        &["-15954", "8642.042", "-3.56395", "15.50546"],
    );
    let c = [-15954.0, 8642.042, -3.56395, 15.50546];
    within_a_point(printed_difference(&t, "log-size", &c), 38.0, None);
}

#[test]
fn eqs_3_12_to_3_14_scatter_tables_3_7_to_3_9() {
    let cases: [(u32, [&str; 4], f64, f64); 3] = [
        (
            7,
            ["56.10779", "119.7135", "0.017849", "0.067336"],
            5.0,
            3.0,
        ),
        (
            8,
            ["684.6957", "2797.822", "-5.97021", "4.550472"],
            8.0,
            12.0,
        ),
        (
            9,
            ["4718.983", "335.7307", "-7.25356", "9.410276"],
            19.0,
            18.0,
        ),
    ];
    for (k, printed, apd, sd) in cases {
        let t = table(k);
        coefficients_as_printed(&t, "linear-size", &printed);
        let c: Vec<f64> = printed.iter().map(|s| s.parse().unwrap()).collect();
        within_a_point(printed_difference(&t, "linear-size", &c), apd, Some(sd));
    }
}

#[test]
fn eq_3_15_gather_t3d_table_3_10_is_not_reproduced() {
    // Printed 225.3635 + 7.415866p + 0.005211d + 0.052697pd, 10%/6%. No single or double
    // digit typo, and no subset of rows or columns, gives it (NOTES.md §4); the printed
    // table gives the fit below, whose difference is 11.5%/7.5%.
    let t = table(10);
    let c = fit_form(
        &group(&t),
        Form::named("linear-size").unwrap(),
        Statistic::Mean,
        Fitting::Absolute,
        1,
    )
    .unwrap();
    for (got, want) in c
        .coefficients()
        .iter()
        .zip([268.9887, 7.290434, 0.0040434, 0.0529424])
    {
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0) + 5e-5,
            "{got} {want}"
        );
    }
    assert!((c.fitted.mean - 11.53).abs() < 0.01 && (c.fitted.sd - 7.49).abs() < 0.01);
    let printed = [225.3635, 7.415866, 0.005211, 0.052697];
    let d = printed_difference(&t, "linear-size", &printed);
    assert!(
        (d.mean - 6.99).abs() < 0.01 && (d.sd - 5.33).abs() < 0.01,
        "{d:?}"
    );
}

#[test]
fn eq_3_16_gather_meiko_table_3_11_fitted_with_two_transpositions() {
    // The coefficients need p=8, d=1000: 54384 → 54834 and p=36, d=1000: 260923 → 260932
    // (adjacent-digit transpositions); the stated 8%/10% holds on the printed table.
    let fitted = corrected(table(11), &[(8, 1000.0, 54834.0), (36, 1000.0, 260932.0)]);
    coefficients_as_printed(
        &fitted,
        "linear-size",
        &["4603.144", "2097.03", "-9.26726", "5.261446"],
    );
    let c = [4603.144, 2097.03, -9.26726, 5.261446];
    within_a_point(
        printed_difference(&table(11), "linear-size", &c),
        8.0,
        Some(10.0),
    );
}

#[test]
fn eq_3_17_gather_workstations_table_3_12_fitted_with_a_lost_digit() {
    // The coefficients need p=4, d=10000 = 29508 (printed 295077): the author fitted a value
    // with a digit lost and evaluated against the right one (38% on the printed table).
    let fitted = corrected(table(12), &[(4, 10000.0, 29508.0)]);
    coefficients_as_printed(
        &fitted,
        "log-size",
        &["-18926.3", "11913.75", "-24.9043", "30.38917"],
    );
    let c = [-18926.3, 11913.75, -24.9043, 30.38917];
    within_a_point(printed_difference(&table(12), "log-size", &c), 38.0, None);
}

#[test]
fn eqs_3_18_to_3_20_send_receive_are_not_reproduced() {
    // 3.18 (T3D): the d terms agree, the intercept is 0.097 µs off (beyond rounding);
    // stated 14%/31%, the printed equation gives 20.0%/37.0%.
    let t = table(13);
    let c = fit_form(
        &group(&t),
        Form::named("linear-size").unwrap(),
        Statistic::Mean,
        Fitting::Absolute,
        1,
    )
    .unwrap();
    assert!((c.coefficients()[2] - 0.367175).abs() <= half_digit("0.367175"));
    assert!((c.coefficients()[3] - 0.000142).abs() <= half_digit("0.000142"));
    assert!((c.coefficients()[0] - 195.2723).abs() > 0.09);
    let d = printed_difference(&t, "linear-size", &[195.2723, -0.29551, 0.367175, 0.000142]);
    assert!(
        (d.mean - 20.0).abs() < 0.05 && (d.sd - 37.03).abs() < 0.05,
        "{d:?}"
    );
    // 3.19 (Meiko): fits only the d = 1e5 cells at p = 2 and 4; stated 43%/25%, the
    // printed equation gives 93%/100%. The table's own fit is far from it.
    let t = table(14);
    let d = printed_difference(&t, "linear-size", &[5838.369, -114.467, 1.310977, 1.84964]);
    assert!(
        (d.mean - 93.35).abs() < 0.05 && (d.sd - 100.06).abs() < 0.05,
        "{d:?}"
    );
    let c = fit_form(
        &group(&t),
        Form::named("linear-size").unwrap(),
        Statistic::Mean,
        Fitting::Absolute,
        1,
    )
    .unwrap();
    assert!(
        (c.coefficients()[0] - 9829.802).abs() < 0.01,
        "{:?}",
        c.coefficients()
    );
    // 3.20 (workstations): printed without a constant; stated 60%, the printed equation
    // gives 61.3% (the skeleton tables 3-18..3-20 use it so, without a constant).
    let t = table(15);
    let f = Form::named("linear-size").unwrap();
    let d = printed_difference(&t, f.name, &[0.0, -568.124, 21.03587, 2.792803]);
    assert!((d.mean - 61.26).abs() < 0.05, "{d:?}");
    let c = fit_form(&group(&t), f, Statistic::Mean, Fitting::Absolute, 1).unwrap();
    assert!(
        (c.coefficients()[0] + 165080.0).abs() < 1.0,
        "{:?}",
        c.coefficients()
    );
}

#[test]
fn the_thesis_rule_picks_the_thesis_forms() {
    // Ranking by the difference on the fitted cells (the thesis' rule, inferred in
    // NOTES.md §2) picks the printed form for every table but four: 3.6 (constant 3.65%
    // against log 3.63%, a near tie), 3.17 (the printed table favours linear, 18.6% against
    // 28.1%: the thesis fitted a mistyped cell), 3.18 (linear 20.0% against log 19.7%) and
    // 3.20, whose printed linear form has no constant and is not reproduced at all.
    let thesis: [(u32, &str); 15] = [
        (1, "constant"),
        (2, "log"),
        (3, "linear"),
        (4, "log-size"),
        (5, "log-size"),
        (6, "log-size"),
        (7, "linear-size"),
        (8, "linear-size"),
        (9, "linear-size"),
        (10, "linear-size"),
        (11, "linear-size"),
        (12, "log-size"),
        (13, "linear-size"),
        (14, "linear-size"),
        (15, "linear-size"),
    ];
    // The thesis' forms only: the p-independent `size` form (start-up and bandwidth, from
    // chapter 4) is not among chapter 3's candidates, and it would win 3.18 and 3.20.
    let opts = Options {
        forms: ["constant", "log", "linear", "log-size", "linear-size"]
            .iter()
            .map(|n| Form::named(n).unwrap())
            .collect(),
        statistic: Statistic::Mean,
        criterion: Criterion::Fitted,
        fitting: Fitting::Absolute,
        max_regimes: 1,
    };
    let mut disagree = Vec::new();
    for (k, form) in thesis {
        let m = fit_group(group(&table(k)), &opts);
        let chosen = m.best().unwrap().form.name;
        if chosen != form {
            disagree.push((k, chosen));
        }
    }
    assert_eq!(
        disagree,
        vec![
            (1, "log"),
            (12, "linear-size"),
            (13, "log-size"),
            (15, "log-size")
        ]
    );
}
