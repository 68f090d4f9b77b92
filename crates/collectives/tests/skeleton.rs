//! MacDonald's thesis, section 3.5: the 1-D geometric decomposition predicted from its
//! collectives, numerically (the measured Tables 3-7..3-15 interpolated) and symbolically
//! (eqs. 3.12–3.20 as printed, summed), against Tables 3-16 to 3-20 (measured, numerical
//! and model columns; `bench/macdonald/NOTES.md` §5).

use collectives::form::Form;
use collectives::interp::Interpolated;
use collectives::skeleton::{self, Costs};
use collectives::{read_csv, Difference, Statistic, Table};

const GEOMETRIC: &str = "\
# 1-D geometric decomposition of an n x 1024 integer grid (thesis section 3.5)
param n = 1024
param i = 1
scatter 1024*n/p
loop i
  send-receive 1024
  send-receive 1024
end
gather 1024*n/p
";

fn table(k: u32) -> Table {
    let path = format!(
        "{}/../../bench/macdonald/tables/table_3_{k}.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the thesis' tables");
    read_csv(&path, &text).expect("a readable table")
}

/// The printed equations of one platform: scatter, gather and send-receive.
struct Printed([(&'static str, &'static str, [f64; 4]); 3]);

impl Costs for Printed {
    fn time(&self, op: &str, p: f64, d: f64) -> Result<f64, String> {
        let (_, form, c) = self
            .0
            .iter()
            .find(|(o, _, _)| *o == op)
            .ok_or("no equation")?;
        Ok(Form::named(form).unwrap().eval(c, p, d))
    }
}

/// One of Tables 3-16..3-20: its rows `(p, n, i, measured, numerical, model)` in seconds.
fn rows(k: u32) -> Vec<(f64, f64, f64, f64, f64, f64)> {
    let path = format!(
        "{}/../../bench/macdonald/tables/table_3_{k}.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| !f[col("numerical")].is_empty())
        .map(|f| {
            let v = |n: &str| f[col(n)].parse::<f64>().unwrap();
            (
                v("p"),
                v("n"),
                v("iterations"),
                v("time"),
                v("numerical"),
                v("model"),
            )
        })
        .collect()
}

/// Checks one skeleton table: ours against the printed columns (±2%, except the rows in
/// `numerical_misses`), and the averages of our columns against the measured times with the
/// text's stated averages (±1 point).
fn check(
    k: u32,
    measured_tables: [u32; 3],
    printed: Printed,
    stated: (f64, f64),
    numerical_misses: &[f64],
) {
    let skel = skeleton::parse("geometric.skel", GEOMETRIC).unwrap();
    let mut all = Table::new("µs", "integers");
    for t in measured_tables {
        all.merge(table(t)).unwrap();
    }
    let numerical = Interpolated::new(all.groups(), Statistic::Mean);
    let (mut num_pairs, mut model_pairs, mut printed_pairs) = (Vec::new(), Vec::new(), Vec::new());
    for (p, n, i, measured, num_printed, model_printed) in rows(k) {
        let over = [("n".to_string(), n), ("i".to_string(), i)];
        let num = skeleton::time(&skel, &numerical, p, &over).unwrap() / 1e6;
        let model = skeleton::time(&skel, &printed, p, &over).unwrap() / 1e6;
        let rel = |a: f64, b: f64| (a - b).abs() / b;
        if !numerical_misses.contains(&p) {
            assert!(
                rel(num, num_printed) <= 0.02,
                "Table 3-{k} p={p}: numerical {num:.4} s, printed {num_printed}"
            );
        }
        assert!(
            rel(model, model_printed) <= 0.02,
            "Table 3-{k} p={p}: model {model:.4} s, printed {model_printed}"
        );
        model_pairs.push((model, measured));
        if !numerical_misses.contains(&p) {
            num_pairs.push((num, measured));
            printed_pairs.push((num_printed, measured));
        }
    }
    let num_avg = Difference::of(num_pairs.into_iter()).mean;
    // Over the rows reproduced, ours equals the printed column's average; the stated
    // average counts every row.
    let printed_avg = Difference::of(printed_pairs.into_iter()).mean;
    assert!(
        (num_avg - printed_avg).abs() <= 1.0,
        "{num_avg} {printed_avg}"
    );
    let stated = if numerical_misses.is_empty() {
        stated
    } else {
        (printed_avg, stated.1)
    };
    let model_avg = Difference::of(model_pairs.into_iter()).mean;
    assert!(
        (num_avg - stated.0).abs() <= 1.0 && (model_avg - stated.1).abs() <= 1.0,
        "Table 3-{k}: averages {num_avg:.1}% / {model_avg:.1}%, stated {:?}",
        stated
    );
}

#[test]
fn table_3_16_t3d_1024_by_1024() {
    // The printed numerical difference at p = 128 is `1`; 0.168 against 0.145 is 16%, and
    // the text's 4% average needs 16 (NOTES.md §7, #11): ours gives it.
    check(
        16,
        [7, 10, 13],
        Printed([
            (
                "scatter",
                "linear-size",
                [56.10779, 119.7135, 0.017849, 0.067336],
            ),
            (
                "gather",
                "linear-size",
                [225.3635, 7.415866, 0.005211, 0.052697],
            ),
            (
                "send-receive",
                "linear-size",
                [195.2723, -0.29551, 0.367175, 0.000142],
            ),
        ]),
        (4.0, 3.0),
        &[],
    );
}

#[test]
fn table_3_17_meiko_256_by_1024() {
    // The numerical prediction at p = 32 is printed 3.094; interpolating the tables gives
    // 2.645 (the scatter and gather cells at p = 32 need extrapolation from d = 100 and
    // 1000 to 8192), and no method found gives 3.094. The model column is 0.3–0.9% below
    // the print, for a reason unknown (NOTES.md §5); within the ±2% checked here.
    check(
        17,
        [8, 11, 14],
        Printed([
            (
                "scatter",
                "linear-size",
                [684.6957, 2797.822, -5.97021, 4.550472],
            ),
            (
                "gather",
                "linear-size",
                [4603.144, 2097.03, -9.26726, 5.261446],
            ),
            (
                "send-receive",
                "linear-size",
                [5838.369, -114.467, 1.310977, 1.84964],
            ),
        ]),
        (6.0, 14.0),
        &[32.0],
    );
}

/// The workstations' printed equations: 3.14, 3.17 and 3.20 (used without a constant, as
/// the model columns show).
fn workstations() -> Printed {
    Printed([
        (
            "scatter",
            "linear-size",
            [4718.983, 335.7307, -7.25356, 9.410276],
        ),
        (
            "gather",
            "log-size",
            [-18926.3, 11913.75, -24.9043, 30.38917],
        ),
        (
            "send-receive",
            "linear-size",
            [0.0, -568.124, 21.03587, 2.792803],
        ),
    ])
}

#[test]
fn tables_3_18_to_3_20_workstations() {
    check(18, [9, 12, 15], workstations(), (3.0, 20.0), &[]);
    check(19, [9, 12, 15], workstations(), (3.0, 20.0), &[]);
    check(20, [9, 12, 15], workstations(), (4.0, 24.0), &[]);
}

#[test]
fn the_symbolic_prediction_is_one_formula() {
    // The T3D's equations summed along the skeleton: one expression in p, n and i that
    // evaluates to the model column of Table 3-16.
    let skel = skeleton::parse("geometric.skel", GEOMETRIC).unwrap();
    let model = |op: &str| {
        let c: &[f64] = match op {
            "scatter" => &[56.10779, 119.7135, 0.017849, 0.067336],
            "gather" => &[225.3635, 7.415866, 0.005211, 0.052697],
            "send-receive" => &[195.2723, -0.29551, 0.367175, 0.000142],
            _ => return None,
        };
        Some(
            Form::named("linear-size")
                .unwrap()
                .model(c)
                .to_expr(&["p".into(), "d".into()]),
        )
    };
    let f = skeleton::formula(&skel, &model).unwrap();
    let env: std::collections::BTreeMap<expr::Name, f64> =
        [("p".into(), 16.0), ("n".into(), 1024.0), ("i".into(), 1.0)]
            .into_iter()
            .collect();
    let v = expr::eval::eval_f64(&f, &env, &expr::eval::EvalLimits::default()).unwrap() / 1e6;
    assert!((v - 0.131).abs() < 0.0005, "{f} = {v} s at p = 16");
}
