#![allow(missing_docs)] // the crate front page's example, run as a test
use std::sync::Arc;

use expr::grid::parse_binding;
use sweep::{
    CsvSink, Evaluation, Limit, Meter, OnError, Phase, Reached, Sample, Sink, Space, TextColumn,
    EVERY,
};

/// A toy engine: counts up to `max` units of work, updating the meter as it goes, and
/// stops with a typed reason when it would pass its limit.
fn count_to(n: u64, max: u64, meter: &Meter) -> Result<u64, Reached> {
    meter.start();
    for i in 0..n {
        if i == max {
            return Err(Reached::new(Limit::Events, max));
        }
        if (i as usize).is_multiple_of(EVERY) {
            meter.set_count(i);
        }
    }
    meter.set_count(n);
    meter.set_analysing();
    Ok(n)
}

fn main() {
    let meter = Arc::new(Meter::default());
    assert_eq!(count_to(10_000, 1_000_000, &meter), Ok(10_000));
    assert_eq!((meter.count(), meter.phase()), (10_000, Phase::Analysing));

    let stop = count_to(10_000, 5_000, &meter).unwrap_err();
    assert_eq!(stop, Reached::new(Limit::Events, 5_000));
    // Libraries describe the limit; the command line adds the flag that raises it.
    assert_eq!(stop.to_string(), "the limit of 5000 events");
    assert_eq!(meter.phase(), Phase::Running);

    // A sweep: the engine supplies a point function and its columns; the runner decodes
    // the points, evaluates them in parallel chunks and feeds the sinks in order.
    let bindings = ["N=100", "P=1,2,4"]
        .map(|b| parse_binding(b).unwrap())
        .to_vec();
    let space = Space::new(bindings, 1_000).unwrap();
    let columns = ["time".to_string()];
    let mut csv = CsvSink::new(Vec::new());
    let mut table = Sample::all(space.len());
    let mut sinks: [&mut dyn Sink; 2] = [&mut csv, &mut table];
    let eval = Evaluation {
        meter: Some(&meter),
        on_error: OnError::Stop,
        ..Evaluation::default()
    };
    meter.start();
    let time = |_: u64, p: &[f64], out: &mut [f64]| -> Result<(), String> {
        out[0] = p[0] / p[1];
        Ok(())
    };
    let outcome = sweep::run(&space, &columns, &eval, time, &mut sinks).unwrap();
    assert_eq!((outcome.points, outcome.failed, meter.count()), (3, 0, 3));
    let csv = String::from_utf8(csv.into_inner()).unwrap();
    assert_eq!(csv, "N,P,time\n100,1,100\n100,2,50\n100,4,25\n");
    let mut cols = TextColumn::swept(&space);
    cols.push(TextColumn::num("time", 0));
    assert_eq!(
        table.table(&cols).render(""),
        "P  time\n-------\n1   100\n2    50\n4    25\n"
    );
}
