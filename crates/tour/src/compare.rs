//! The tour's last stop: every method on one real program's study, against its held-out
//! runs, and the method vates would have trusted from the training data alone
//! (`vates compare`, [`study::compare`]).

use std::fmt::Write as _;
use std::path::Path;

use crate::{err, section, Result};

/// The study of the BOTS sort kernel (examples/studies/sort).
const SORT: [&str; 4] = [
    include_str!("../../../examples/studies/sort/campaign.toml"),
    include_str!("../../../examples/studies/sort/train-times.csv"),
    include_str!("../../../examples/studies/sort/test-times.csv"),
    include_str!("../../../examples/studies/sort/train.csv"),
];
/// The study of the lock-heavy queue (examples/studies/queue) and its thread graph.
const QUEUE: [&str; 5] = [
    include_str!("../../../examples/studies/queue/campaign.toml"),
    include_str!("../../../examples/studies/queue/train-times.csv"),
    include_str!("../../../examples/studies/queue/test-times.csv"),
    include_str!("../../../examples/studies/queue/train-samples.csv"),
    include_str!("../../../examples/semi/queue.tg"),
];
const MACHINE: &str = include_str!("../../../examples/studies/queue/machine.json");

/// Section 10.
pub(crate) fn compare(s: &mut String) -> Result<()> {
    section(
        s,
        10,
        "Every method, one report (vates compare, examples/studies)",
    );
    let _ = writeln!(
        s,
        "A study holds a program's training runs and held-out test runs at larger sizes\n\
         (`vates campaign run` measures one, here or as Slurm job arrays). `vates compare`\n\
         runs every method whose inputs it holds and recommends one from the training data\n\
         alone: each of the larger training sizes predicted from the sizes below it.\n"
    );
    let sort = study::file::parse("sort/campaign.toml", SORT[0]).map_err(err)?;
    let texts = study::compare::Texts {
        train_times: Some(SORT[1]),
        test_times: Some(SORT[2]),
        train_rows: Some(SORT[3]),
        ..Default::default()
    };
    let mut inputs = study::compare::from_texts(Path::new("examples/studies/sort"), &sort, &texts)
        .map_err(err)?;
    inputs.bootstrap = 0;
    summary(s, &study::compare::compare(&inputs));
    let queue = study::file::parse("queue/campaign.toml", QUEUE[0]).map_err(err)?;
    let texts = study::compare::Texts {
        train_times: Some(QUEUE[1]),
        test_times: Some(QUEUE[2]),
        train_samples: Some(QUEUE[3]),
        machine: Some(MACHINE),
        semi_model: Some(("examples/semi/queue.tg", QUEUE[4])),
        ..Default::default()
    };
    let mut inputs =
        study::compare::from_texts(Path::new("examples/studies/queue"), &queue, &texts)
            .map_err(err)?;
    inputs.bootstrap = 0;
    summary(s, &study::compare::compare(&inputs));
    let _ = writeln!(
        s,
        "The two-step model reads the recorded DAGs' work, delay and no_work; the\n\
         semi-empirical model simulates the queue's lock from its thread graph; fit sees only\n\
         the times. Across the nine studies of examples/studies the recommended method is\n\
         within 1.5x of the best one's error on all nine (bench/RESULTS.md)."
    );
    Ok(())
}

/// A study's methods and recommendation, in a few lines.
fn summary(s: &mut String, c: &study::compare::Comparison) {
    let _ = writeln!(
        s,
        "{} (test points at {} = {}):",
        c.study,
        c.parameters[0],
        c.methods
            .iter()
            .find_map(|m| m.points.first().map(|p| trace::text::num(p.n)))
            .unwrap_or_default()
    );
    for m in c.methods.iter().filter(|m| m.skipped.is_none()) {
        let pct = |e: Option<f64>| e.map_or("-".into(), |e| format!("{:.1}%", 100.0 * e));
        let _ = writeln!(
            s,
            "  {:<11} median error {:>6}   self-assessed {:>6}",
            m.method,
            pct(m.median_error),
            pct(m.self_assessed_error)
        );
    }
    if let Some(r) = &c.recommended {
        let _ = writeln!(
            s,
            "  recommended: {} (self-assessed {:.1}%, on the test points {:.1}%)\n",
            r.method,
            100.0 * r.self_assessed_error,
            100.0 * r.actual_error.unwrap_or(f64::NAN)
        );
    }
}
