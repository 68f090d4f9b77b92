//! The progress meter: what a progress display reads while an analysis runs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use etccs::parametric::{analyse_parametric, Options as ParamOptions};
use etccs::parse::parse_with_consts;
use etccs::{analyse, parse, Meter, Options, Phase, Time};

const SCATTER: &str = include_str!("../../../examples/etccs/scatter.etccs");

fn metered(meter: &Arc<Meter>) -> Options {
    Options {
        meter: Some(Arc::clone(meter)),
        ..Options::default()
    }
}

#[test]
fn concrete_meter_ends_with_the_state_count_and_restarts_per_analysis() {
    let mut m = parse_with_consts("s.etccs", SCATTER, &[("p", Time::from_integer(4.into()))])
        .expect("parses");
    let meter = Arc::new(Meter::default());
    assert_eq!((meter.count() as usize, meter.phase()), (0, Phase::Running));
    let big = analyse(&mut m, "NonBlockingBus", &metered(&meter)).expect("analyses");
    assert_eq!(meter.count() as usize, big.states);
    assert_eq!(meter.phase(), Phase::Analysing);
    // A second, smaller analysis through the same meter counts its own states.
    let small = analyse(&mut m, "RepeatedPerfect", &metered(&meter)).expect("analyses");
    assert!(
        small.states < big.states,
        "{} < {}",
        small.states,
        big.states
    );
    assert_eq!(meter.count() as usize, small.states);
}

#[test]
fn parametric_meter_counts_state_region_pairs() {
    let src = "param t1, t2;\nagent P = ('a@t1.nil | a@t2.nil) \\ {a};\nanalyse P";
    let mut m = parse("p.etccs", src).expect("parses");
    let meter = Arc::new(Meter::default());
    let opts = ParamOptions {
        meter: Some(Arc::clone(&meter)),
        ..ParamOptions::default()
    };
    let a = analyse_parametric(&mut m, "P", &opts).expect("analyses");
    assert!(a.states > 0);
    assert_eq!(meter.count() as usize, a.states);
    assert_eq!(meter.phase(), Phase::Analysing);
}

/// A reader on another thread sees the count grow while exploring (never
/// past the final count), then the analysis phase.
#[test]
fn readings_during_a_run_only_grow() {
    let mut m = parse_with_consts("s.etccs", SCATTER, &[("p", Time::from_integer(7.into()))])
        .expect("parses");
    let meter = Arc::new(Meter::default());
    let done = AtomicBool::new(false);
    let (states, readings) = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut seen = Vec::new();
            while !done.load(Ordering::Relaxed) {
                seen.push((meter.phase(), meter.count() as usize));
                std::thread::yield_now();
            }
            seen
        });
        let a = analyse(&mut m, "NonBlockingBus", &metered(&meter)).expect("analyses");
        done.store(true, Ordering::Relaxed);
        (a.states, reader.join().expect("reader"))
    });
    assert!(
        states > 4 * 4096,
        "large enough for updates during the run: {states}"
    );
    for w in readings.windows(2) {
        let (a, b) = (w[0], w[1]);
        assert!(a.1 <= b.1, "counts only grow: {a:?} then {b:?}");
        assert!(
            !(a.0 == Phase::Analysing && b.0 == Phase::Running),
            "the phase only moves on: {a:?} then {b:?}"
        );
    }
    assert!(readings.iter().all(|r| r.1 <= states));
    assert_eq!(meter.count() as usize, states);
}
