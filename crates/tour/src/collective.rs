//! The tour's stop on collective communication (MacDonald, thesis chapter 3): models of MPI
//! collectives fitted to a table measured on the development machine, and the thesis'
//! geometric decomposition predicted from the T3D's tables, numerically and symbolically.

use std::fmt::Write as _;

use collectives::interp::Interpolated;
use collectives::model::{Fitting, Options};
use collectives::{read_csv, Statistic, Table};
use trace::text::{fixed, num};

use crate::{err, section, Result};

const HERE: &str = include_str!("../../../examples/collectives/here.csv");
const SKELETON: &str = include_str!("../../../examples/collectives/geometric.skel");
const T3D_SCATTER: &str = include_str!("../../../bench/macdonald/tables/table_3_7.csv");
const T3D_GATHER: &str = include_str!("../../../bench/macdonald/tables/table_3_10.csv");
const T3D_SENDRECV: &str = include_str!("../../../bench/macdonald/tables/table_3_13.csv");
/// Table 3-16: the measured times (s) of the decomposition of a 1024 × 1024 grid on the
/// T3D, p = 2..128.
const T3D_MEASURED: [(u32, f64); 7] = [
    (2, 0.165),
    (4, 0.137),
    (8, 0.131),
    (16, 0.129),
    (32, 0.132),
    (64, 0.137),
    (128, 0.145),
];

/// Section 9.
pub(crate) fn collective(s: &mut String) -> Result<()> {
    section(
        s,
        9,
        "Collective communication: MacDonald's models (examples/collectives)",
    );
    let _ = writeln!(
        s,
        "`vates probe` timed eight MPI collectives on this repository's 2-core machine\n\
         (examples/collectives/here.csv). Broadcast at p = 2, each size's fastest run,\n\
         fitted by the thesis' forms in one to three size regimes (Open MPI switches protocol\n\
         with the size), ranked by the average prediction difference on sizes left out:\n"
    );
    let here = read_csv("here.csv", HERE).map_err(err)?;
    let opts = Options {
        statistic: Statistic::Min,
        ..Options::default()
    };
    let models = collectives::fit_table(&here, &opts);
    let bcast = models
        .iter()
        .find(|m| m.group.op == "broadcast" && !m.group.shared)
        .ok_or_else(|| err("no broadcast in here.csv"))?;
    for (i, c) in bcast.candidates.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {} {:<8} APD {:>5}% fitted, {:>5}% left out   {}",
            if i == 0 { "*" } else { " " },
            c.name(),
            fixed(c.fitted.mean, 1),
            c.cross_validated
                .map_or("-".to_string(), |d| fixed(d.mean, 1)),
            collectives::report::equation(c)
        );
    }
    let _ = writeln!(
        s,
        "\nThe runs at p = 4 were time-shared (4 processes on 2 cores): they are fitted apart\n\
         and never mixed with these. On the T3D, the thesis' geometric decomposition of a\n\
         1024 x 1024 grid (examples/collectives/geometric.skel: scatter the rows, two halo\n\
         exchanges, gather) predicted from Tables 3-7, 3-10 and 3-13 (the measured scatter,\n\
         gather and send-receive), numerically by interpolating them (eq. 3.21) and\n\
         symbolically by summing fitted models, against Table 3-16's measured times:\n"
    );
    let skel = collectives::skeleton::parse("geometric.skel", SKELETON).map_err(err)?;
    let mut t3d = Table::new("µs", "integers");
    for (name, text) in [
        ("table_3_7.csv", T3D_SCATTER),
        ("table_3_10.csv", T3D_GATHER),
        ("table_3_13.csv", T3D_SENDRECV),
    ] {
        t3d.merge(read_csv(name, text).map_err(err)?).map_err(err)?;
    }
    let opts = Options {
        statistic: Statistic::Mean,
        fitting: Fitting::Absolute,
        ..Options::default()
    };
    let points: Vec<(f64, Vec<(String, f64)>)> = T3D_MEASURED
        .iter()
        .map(|&(p, _)| (f64::from(p), Vec::new()))
        .collect();
    let pr = collectives::skeleton::predict(&skel, &t3d, &opts, &points).map_err(err)?;
    if let Some(f) = &pr.formula {
        let _ = writeln!(s, "  symbolic time (µs) = {f}\n");
    }
    let _ = writeln!(s, "    p  measured  numerical      E   symbolic      E");
    let _ = writeln!(s, "  {}", "-".repeat(50));
    for (pt, &(p, measured)) in pr.points.iter().zip(&T3D_MEASURED) {
        let cell = |v: Option<f64>| match v {
            Some(v) => {
                let sec = v / 1e6;
                (
                    format!("{} s", num((sec * 1000.0).round() / 1000.0)),
                    format!("{}%", fixed((sec - measured).abs() / measured * 100.0, 0)),
                )
            }
            None => ("-".into(), "-".into()),
        };
        let (n, ne) = cell(pt.numerical);
        let (m, me) = cell(pt.symbolic);
        let _ = writeln!(
            s,
            "  {p:>3}  {measured:>6} s  {n:>9}  {ne:>5}  {m:>9}  {me:>5}"
        );
    }
    // Interpolation needs the measured row of p; the models predict any p.
    let numerical = Interpolated::new(t3d.groups(), Statistic::Mean);
    let missing = collectives::skeleton::time(&skel, &numerical, 512.0, &[]).is_err();
    let _ = writeln!(
        s,
        "\nThe thesis printed the same columns (Table 3-16). Interpolation needs a measured\n\
         row of p{}; the formula extrapolates to any p and grid size (`vates collectives\n\
         skeleton`).",
        if missing { " (none at p = 512)" } else { "" }
    );
    Ok(())
}
