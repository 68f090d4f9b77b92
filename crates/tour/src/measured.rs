//! The tour's stops on real programs, methods 4 and 5: predictions from runs of this
//! repository's programs on the development machine (the committed samples, recordings and
//! machine profile), checked against their measured runs.

use std::fmt::Write as _;

use semi::costs::MachineCosts;
use semi::fitting::fit_for;
use semi::instantiate::{instantiate, Bindings, Limits};
use semi::predict::{predict, PredictOptions};
use semi::samples::read_samples;
use semi::sim::{simulate, FixedCosts, Options};
use stats::median;
use trace::text::{fixed, seconds};

use crate::{err, section, Result};

const GE: &str = include_str!("../../../examples/semi/ge.tg");
const GE_SAMPLES: &str = include_str!("../../../examples/semi/ge_samples.csv");
const GE_MEASURED: &str = include_str!("../../../examples/semi/ge_measured.csv");
const GE_DRAM_SAMPLES: &str = include_str!("../../../examples/semi/ge_dram_samples.csv");
const GE_DRAM_MEASURED: &str = include_str!("../../../examples/semi/ge_dram_measured.csv");
const CLUSTER: &str = include_str!("../../../examples/semi/cluster.tg");
const MACHINE: &str = include_str!("../../../examples/semi/machine.json");
const TASKPAR_TRAIN: &str = include_str!("../../../examples/taskpar/train.csv");
const TASKPAR_TEST: &str = include_str!("../../../examples/taskpar/test.csv");

/// Section 7: the semi-empirical method on Gaussian elimination, and Algorithm G on the
/// lock-and-barrier cluster.
pub(crate) fn shared_memory(s: &mut String) -> Result<()> {
    section(
        s,
        7,
        "Shared memory: semi-empirical prediction (examples/semi)",
    );
    let _ = writeln!(
        s,
        "Gaussian elimination (crates/threadprogs) as a thread graph: P workers own the\n\
         columns, the main thread pivots while they wait at a barrier. Each segment's cost was\n\
         fitted to two small sample runs per P, the events were costed by micro-benchmarks of\n\
         the machine (vates probe), and Algorithm G predicts runs 4-6.7x larger in N, against\n\
         the measured medians. First with samples at N = 240, 320:\n"
    );
    let model = semi::lang::parse("examples/semi/ge.tg", GE).map_err(err)?;
    let profile = probe::Profile::from_json(MACHINE).map_err(err)?;
    let costs = MachineCosts { profile };
    ge_table(
        s,
        &model,
        &costs,
        ("ge_samples.csv", GE_SAMPLES),
        ("ge_measured.csv", GE_MEASURED),
    )?;
    let _ = writeln!(
        s,
        "\nThe samples' matrices (450-800 KiB) fit in a cache, the targets' (12-20 MiB) do not:\n\
         the cost per eliminated element changes between them, which no sample shows, and vates\n\
         warns. The paper's remedy is samples in the targets' regime: at N = 3072 and 3328 the\n\
         matrices (72-85 MiB) are past the 32 MiB last-level cache, as the target's (1.3 GiB)\n\
         at N = 13312 is:\n"
    );
    ge_table(
        s,
        &model,
        &costs,
        ("ge_dram_samples.csv", GE_DRAM_SAMPLES),
        ("ge_dram_measured.csv", GE_DRAM_MEASURED),
    )?;
    let _ = writeln!(
        s,
        "\nCloser, and no warning, but not within 10%: the samples cost 1.3 ns per element at\n\
         P = 1 and the target 1.0-1.2 ns, a change no sample shows (`threadprogs ge-steps`\n\
         prints the cost per step: it falls with N, about as 0.9 + 1166/N ns, an N^2 term two\n\
         nearby sample sizes cannot separate from the N^3 one). Samples in between\n\
         (N = 1600, 1792: past the probe's latency boundary, inside the last-level cache) miss\n\
         by 20% and 38% (examples/semi/ge_large_*.csv). Each sample run here took 8-17 s, the\n\
         target 9-16 minutes. The imbalance column is the main thread waiting while the\n\
         workers eliminate.\n"
    );
    let _ = writeln!(
        s,
        "Algorithm G on the cluster of examples/semi/cluster.tg: three threads of work 4, 6, 5,\n\
         a critical section of 1 each (lock 0.1) and a barrier (0.5):"
    );
    let cluster = semi::lang::parse("examples/semi/cluster.tg", CLUSTER).map_err(err)?;
    let costs = FixedCosts {
        lock: 0.1,
        barrier: 0.5,
        ..FixedCosts::default()
    };
    for (label, w) in [("unequal", [4.0, 6.0, 5.0]), ("equal", [6.0, 6.0, 6.0])] {
        let b = Bindings {
            params: vec![
                ("w1".into(), w[0]),
                ("w2".into(), w[1]),
                ("w3".into(), w[2]),
            ],
            coeffs: Vec::new(),
        };
        let g = instantiate(&cluster, &b, &Limits::default()).map_err(err)?;
        let o = simulate(
            &g.graph,
            &costs,
            &Options {
                processors: 3,
                ..Options::default()
            },
        )
        .map_err(err)?;
        let lock: f64 = o.threads.iter().map(|t| t.lock_wait).sum();
        let barrier: f64 = o.threads.iter().map(|t| t.barrier_wait).sum();
        let _ = writeln!(
            s,
            "  {label:<8} work: time {}, lock waits {}, barrier waits {}",
            fixed(o.time, 1),
            fixed(lock, 1),
            fixed(barrier, 1)
        );
    }
    let _ = writeln!(
        s,
        "Unequal work hides the critical sections in the imbalance; equal work serialises them."
    );
    Ok(())
}

/// Section 8: the two-step model on the recorded BOTS sparselu runs.
pub(crate) fn task_parallel(s: &mut String) -> Result<()> {
    use taskpar::model::{predict as tp_predict, read_runs, train, TrainOptions};
    section(
        s,
        8,
        "Task-parallel programs: the two-step model (examples/taskpar)",
    );
    let _ = writeln!(
        s,
        "BOTS sparselu in Rust, its task DAG recorded by taskrec at n = 10..35 on p = 1, 2\n\
         workers. The model fits work, delay and no_work (time = (T1 + delay + no_work)/p) and\n\
         predicts runs 4x larger, beside a direct regression of the time:\n"
    );
    let train_set = read_runs("train.csv", TASKPAR_TRAIN)
        .map_err(err)?
        .for_app("sparselu");
    let test = read_runs("test.csv", TASKPAR_TEST)
        .map_err(err)?
        .for_app("sparselu");
    let opts = TrainOptions {
        bootstrap: 0,
        ..TrainOptions::default()
    };
    let model = train(&train_set, &opts).map_err(err)?;
    let _ = writeln!(
        s,
        "    n  p  measured  two-step      E    direct      E   work  delay  no_work"
    );
    let _ = writeln!(s, "  {}", "-".repeat(72));
    for n in [140.0, 160.0] {
        for p in [1.0, 2.0] {
            let elapsed: Vec<f64> = test
                .runs
                .iter()
                .filter(|r| r.n == n && r.p == p)
                .map(|r| r.elapsed)
                .collect();
            let actual = median(&elapsed).unwrap_or(f64::NAN);
            let pr = tp_predict(&model, n, p).map_err(err)?;
            let total = pr.work + pr.delay + pr.no_work;
            let e = |v: f64| format!("{}%", fixed(100.0 * (v - actual).abs() / actual, 1));
            let share = |v: f64| format!("{}%", fixed(100.0 * v / total, 0));
            let _ = writeln!(
                s,
                "  {n:>3}  {p}  {:>8}  {:>8}  {:>5}  {:>8}  {:>5}  {:>5}  {:>5}  {:>7}",
                seconds(actual),
                seconds(pr.time),
                e(pr.time),
                seconds(pr.direct),
                e(pr.direct),
                share(pr.work),
                share(pr.delay),
                share(pr.no_work)
            );
        }
    }
    let _ = writeln!(
        s,
        "\nThe work dominates; the runtime's delay is the cost of ~290,000 tasks. `vates taskpar\n\
         record` makes such runs of any rayon program that calls taskrec::join and scope."
    );
    Ok(())
}

/// The measured runs of one GE set against the predictions from its samples: a row per
/// measured size and P, with the predicted time's split.
fn ge_table(
    s: &mut String,
    model: &semi::lang::Model,
    costs: &MachineCosts,
    samples: (&str, &str),
    measured: (&str, &str),
) -> Result<()> {
    let samples = read_samples(model, samples.0, samples.1).map_err(err)?;
    let measured = semi::validate::read_measured(model, measured.0, measured.1).map_err(err)?;
    let mut points: Vec<[f64; 2]> = measured.runs.iter().map(|r| [r.0[0], r.0[1]]).collect();
    points.sort_by(|a, b| a[1].total_cmp(&b[1]).then(a[0].total_cmp(&b[0])));
    points.dedup();
    let _ = writeln!(
        s,
        "      N  P  measured  predicted      E  compute  imbalance  events"
    );
    let _ = writeln!(s, "  {}", "-".repeat(65));
    for [n, p] in points {
        let opts = PredictOptions {
            sim: Options {
                processors: p as usize,
                ..Options::default()
            },
            ..PredictOptions::default()
        };
        let (fitted, _) = fit_for(model, &samples, "P", Some(p), costs, &opts).map_err(err)?;
        let times: Vec<f64> = measured
            .runs
            .iter()
            .filter(|r| r.0 == [n, p])
            .map(|r| r.1)
            .collect();
        let b = Bindings {
            params: vec![("N".into(), n), ("P".into(), p)],
            coeffs: fitted.coefficients.clone(),
        };
        let pred = predict(model, &b, costs, &opts).map_err(err)?;
        let o = &pred.outcome;
        let total: f64 = o
            .threads
            .iter()
            .map(|t| t.compute + t.barrier_wait + t.events)
            .sum();
        let share = |f: fn(&semi::sim::ThreadTimes) -> f64| {
            let part: f64 = o.threads.iter().map(f).sum();
            format!("{}%", fixed(100.0 * part / total, 0))
        };
        let actual = median(&times).unwrap_or(f64::NAN);
        let _ = writeln!(
            s,
            "  {n:>5}  {p}  {:>8}  {:>9}  {:>5}%  {:>7}  {:>9}  {:>6}",
            seconds(actual),
            seconds(o.time),
            fixed(100.0 * (o.time - actual).abs() / actual, 1),
            share(|t| t.compute),
            share(|t| t.barrier_wait),
            share(|t| t.events),
        );
    }
    Ok(())
}
